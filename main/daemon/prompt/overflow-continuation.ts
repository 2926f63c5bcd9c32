/**
 * The continuation prompt after a compaction that followed a context overflow (issue 38; DESIGN.md
 * "Compaction, context overflow, crashes"): the runtime compacted its own session, and the same
 * wakes go on in it. It is short and never repeats the task (the compacted session holds it); it
 * names each exact target of the wakes the session was working on and the runtime's own send
 * tool, as the final-check does (contract §8.2, §8.3), so the reply keeps its send scope. Its
 * inputs are targets and ids only, each checked: no runtime text, no message content.
 */
import type { PromptLanguage } from '../../../shared/config.js';
import type { TargetKey } from '../../../shared/target.js';
import { checkedId, checkedTarget } from './prompt-values.js';
import { sendInstruction, sendSurfaceFor, type McpToolNaming, type SendSurfaceKind } from './tool-names.js';

/** Marks the continuation prompt (the scripted fake model answers it through the send tool). */
export const OVERFLOW_CONTINUATION_MARKER = 'CONTEXT-COMPACTED';

/** A wake the overflowed session was working on: its message and exact target (null: none usable). */
export interface ContinuedWake {
  readonly messageId: string;
  readonly targetKey: TargetKey | null;
}

export interface ContinuationContext {
  /** How the agent's runtime names our tools (its descriptor's, runtime/registry.ts `toolNamingOf`). */
  readonly naming: McpToolNaming;
  readonly language: PromptLanguage;
  readonly surface?: SendSurfaceKind;
}

const COPY: Readonly<
  Record<
    PromptLanguage,
    {
      heading: string;
      line: (target: string, ids: string) => string;
      reply: (instruction: string) => string;
      rest: string;
    }
  >
> = {
  en: {
    heading: `${OVERFLOW_CONTINUATION_MARKER}: your context was compacted after it overflowed. Continue the task you were working on; do not start it over.`,
    line: (target, ids) => `- exact target "${target}" (wake message ${ids})`,
    reply: (instruction) => `When you have the result for participants, ${instruction}.`,
    rest: 'Plain/final text is not posted to the conversation.',
  },
  'zh-CN': {
    heading: `${OVERFLOW_CONTINUATION_MARKER}：上下文超限后已压缩。请继续你正在做的任务，不要从头开始。`,
    line: (target, ids) => `- 精确 target "${target}"（wake 消息 ${ids}）`,
    reply: (instruction) => `有面向参与者的结果时，${instruction}。`,
    rest: 'plain/final text 不会被发布到对话中。',
  },
};

/**
 * The continuation for `wakes` (at least one with an exact target), or null when none has one:
 * then there is nothing to reply to and the caller writes no continuation.
 */
export function renderOverflowContinuation(wakes: readonly ContinuedWake[], ctx: ContinuationContext): string | null {
  const copy = COPY[ctx.language];
  const byTarget = new Map<TargetKey, string[]>();
  for (const w of wakes) {
    if (w.targetKey === null) continue;
    const key = checkedTarget(w.targetKey);
    byTarget.set(key, [...(byTarget.get(key) ?? []), `"${checkedId(w.messageId, 'message id')}"`]);
  }
  if (byTarget.size === 0) return null;
  const surface = sendSurfaceFor(ctx.naming, ctx.surface ?? 'mcp');
  const only = byTarget.size === 1 ? ([...byTarget.keys()][0] ?? null) : null;
  const lines = [...byTarget].map(([target, ids]) => copy.line(target, ids.join(', ')));
  return [copy.heading, ...lines, copy.reply(sendInstruction(surface, ctx.language, only)), copy.rest].join('\n');
}
