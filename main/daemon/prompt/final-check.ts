/**
 * The one-shot final-check prompt (contract §6.4, §8.3). One prompt lists every unresolved
 * wake, grouped by canonical target, with its exact target, message id and TargetSeq; a wake
 * whose target cannot be used is marked "reply unavailable". It only restores the decision
 * point: it never contains, paraphrases or replays runtime output (its inputs are ids, targets
 * and sequences only, and each is checked), never asks to redo the task, never sends anything.
 */
import type { PromptLanguage } from '../../../shared/config.js';
import { parseTarget, type TargetKey } from '../../../shared/target.js';
import type { FinalCheckGroup } from '../wake/pending-delivery.js';
import type { FinalCheckRenderer } from '../wake/wake-ports.js';
import { checkedId, checkedSeq, checkedTarget } from './prompt-values.js';
import {
  sendInstruction,
  sendSurfaceFor,
  type McpToolNaming,
  type SendSurfaceKind,
  type ToolNamingOf,
} from './tool-names.js';

/**
 * Marks a final-check prompt; a delivery never contains it. The scripted fake model servers
 * (research/runtimes.md §2) answer a prompt containing it with a `message_send` call.
 */
export const FINAL_CHECK_MARKER = 'FINAL-CHECK';

/**
 * The groups and the renderer port are the wake lifecycle's (wake/pending-delivery.ts,
 * wake/wake-ports.ts): it decides which wakes a final-check lists, this file only words it.
 */
type FinalCheckWake = FinalCheckGroup['wakes'][number];

export interface FinalCheckContext {
  /** How the agent's runtime (and, issue 28, its ACP preset) names our tools: its descriptor's. */
  readonly naming: McpToolNaming;
  readonly language: PromptLanguage;
  /** Agents without MCP use the CLI agent-tools surface; default `mcp`. */
  readonly surface?: SendSurfaceKind;
}

interface Copy {
  heading: string;
  intro: string;
  line: (target: string, wakes: string) => string;
  unavailable: (wakes: string) => string;
  wake: (id: string, seq: number) => string;
  wakeSep: string;
  decide: string;
  send: (instruction: string) => string;
  unavailableRule: string;
  rest: readonly string[];
}

const COPY: Readonly<Record<PromptLanguage, Copy>> = {
  en: {
    heading: `${FINAL_CHECK_MARKER}: final delivery check.`,
    intro: 'These wakes are about to finish without a confirmed reply:',
    line: (target, wakes) => `- exact target "${target}" (${wakes})`,
    unavailable: (wakes) => `- reply unavailable (${wakes}): no exact target can be used`,
    wake: (id, seq) => `wake message "${id}", seq ${seq}`,
    wakeSep: '; ',
    decide:
      'Before going idle, decide for each wake whether you have any result, answer, review, blocker or completion summary intended for participants.',
    send: (instruction) => `For every wake listed with an exact target that needs a reply, now ${instruction}.`,
    unavailableRule: 'Do not call the send tool for a wake marked reply unavailable.',
    rest: [
      'If no reply is needed for a wake, do not produce plain/final text for it.',
      'Do not print a user-facing answer as plain/final text; it will not be posted to the conversation.',
      'This is only a delivery check: do not redo or extend the task.',
    ],
  },
  'zh-CN': {
    heading: `${FINAL_CHECK_MARKER}：完成前投递自检。`,
    intro: '以下 wake 即将在没有确认可见回复的情况下结束：',
    line: (target, wakes) => `- 精确 target "${target}"（${wakes}）`,
    unavailable: (wakes) => `- 无法回复（${wakes}）：没有可用的精确 target`,
    wake: (id, seq) => `wake 消息 "${id}"，seq ${seq}`,
    wakeSep: '；',
    decide: '进入空闲前，请逐个判断：是否有面向参与者的结果、回答、review、阻塞或完成摘要。',
    send: (instruction) => `对于列出了精确 target 且需要回复的 wake，现在就${instruction}。`,
    unavailableRule: '对标记为无法回复的 wake，不要调用发送工具。',
    rest: [
      '如果某个 wake 不需要回复，不要为它输出 plain/final text。',
      '不要把面向用户的回答打印成 plain/final text；它不会被发布到对话中。',
      '这只是投递自检：不要重做或扩展任务。',
    ],
  },
};

/**
 * Renders the final-check prompt. Groups sharing a target are merged (one line per canonical
 * target, §9.2), wakes listed by TargetSeq; "reply unavailable" groups come last. Throws on
 * an empty list or a malformed id/target/seq: both are bugs in the caller.
 */
export function renderFinalCheck(groups: readonly FinalCheckGroup[], ctx: FinalCheckContext): string {
  const copy = COPY[ctx.language];
  const byTarget = new Map<TargetKey | null, FinalCheckWake[]>();
  for (const g of groups) {
    if (g.wakes.length === 0) continue;
    const key = g.target === null ? null : checkedTarget(g.target);
    byTarget.set(key, [...(byTarget.get(key) ?? []), ...g.wakes]);
  }
  if (byTarget.size === 0) throw new Error('internal: a final-check needs at least one unresolved wake');
  const wakeList = (wakes: readonly FinalCheckWake[]): string =>
    [...wakes]
      .sort((a, b) => a.targetSeq - b.targetSeq)
      .map((w) => copy.wake(checkedId(w.messageId, 'message id'), checkedSeq(w.targetSeq, 'TargetSeq')))
      .join(copy.wakeSep);
  const lines: string[] = [];
  for (const [target, wakes] of byTarget) if (target !== null) lines.push(copy.line(target, wakeList(wakes)));
  const unavailable = byTarget.get(null);
  if (unavailable !== undefined) lines.push(copy.unavailable(wakeList(unavailable)));
  const instruction = sendInstruction(sendSurfaceFor(ctx.naming, ctx.surface ?? 'mcp'), ctx.language, null);
  const rules = unavailable === undefined ? copy.rest : [copy.unavailableRule, ...copy.rest];
  return [copy.heading, copy.intro, ...lines, copy.decide, copy.send(instruction), ...rules].join('\n');
}

const LISTED_TARGET = /^- (?:exact target|精确 target) "([^"]+)"/gm;

/** The exact targets a final-check prompt lists, in order (for in-process agents and test fakes). */
export function finalCheckTargets(text: string): TargetKey[] {
  return [...text.matchAll(LISTED_TARGET)].flatMap((m) => {
    const parsed = parseTarget(m[1] ?? '');
    return parsed.ok ? [parsed.key] : [];
  });
}

/**
 * THE final-check renderer of the wake lifecycle's port, used by the daemon and the test
 * harnesses alike (issue 38): the send tool is named from the agent's runtime and its ACP preset
 * by `namingOf` (runtime/registry.ts `toolNamingOf`, issue 39), with its configured surface
 * (`agentTools`, issue 14) through tool-names.ts, the same rules its
 * delivery prompt uses (§8.2, §8.3), so the final-check never names a tool the agent does not
 * offer. Only the port's typed fields are read: nothing else smuggled into the context can
 * reach the text. Without `surfaceOf`, every agent uses MCP.
 */
export function finalCheckRenderer(
  namingOf: ToolNamingOf,
  surfaceOf?: (agentId: string) => SendSurfaceKind,
): FinalCheckRenderer {
  return (groups, ctx) =>
    renderFinalCheck(groups, {
      naming: namingOf(ctx),
      language: ctx.language,
      surface: ctx.agentTools ?? surfaceOf?.(ctx.agentId) ?? 'mcp',
    });
}
