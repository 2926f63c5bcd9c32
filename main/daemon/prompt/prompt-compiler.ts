/**
 * The prompt compiler (contract §8): pure functions from structured inputs to the text
 * written into a runtime session, plus the `prompt_input` drafts that record it (§8.4).
 *
 * One wake delivery = turn context (the §8.1 contract block, on every wake/resume/fresh turn)
 * + envelope(s) with the exact target of each input + the content + one delivery-tail
 * reminder (§8.2). Runtime output is never an input here: only stored messages are.
 */
import type { AgentConfig, PromptLanguage } from '../../../shared/config.js';
import type { TargetKey } from '../../../shared/target.js';
import { renderContractBlock } from './contract-block.js';
import { renderTailReminder } from './delivery-tail.js';
import { turnContextFingerprint, type FingerprintAgent } from './fingerprints.js';
import type { PromptInputDraft } from './prompt-trajectory.js';
import { checkedId, checkedSeq, checkedTarget } from './prompt-values.js';
import { renderEnvelope } from './envelope.js';
import { compileThreadContract } from './thread-contract.js';
import { sendSurfaceFor, type McpToolNaming, type SendSurface, type SendSurfaceKind } from './tool-names.js';
import { renderAskLine, renderTeamBlock, type AskedBy, type TeamMate } from './team-context.js';

/** §8.1: the block is rendered for each of these; the kind is recorded, the block is the same. */
export const TURN_KINDS = ['wake', 'resume', 'fresh'] as const;
export type TurnKind = (typeof TURN_KINDS)[number];

/**
 * What the compiler reads of an agent: fingerprint fields, its prompt language, and how its
 * runtime names our tools (issue 39: its descriptor's, runtime/registry.ts `toolNamingOf`).
 */
export type PromptAgent = FingerprintAgent & Pick<AgentConfig, 'language'> & { readonly toolNaming: McpToolNaming };

/** One stored message made runtime-visible by this delivery (one wake). */
export interface DeliveryMessage {
  readonly messageId: string;
  readonly target: TargetKey;
  readonly targetSeq: number;
  /** Daemon-side correlation only (§9.1): linked in `prompt_input`, never shown to the model. */
  readonly wakeToken: string;
  readonly authorName: string;
  readonly content: string;
  /** issue 25: an agent-caused delivery names who asked and the exact target to answer on. */
  readonly askedBy?: AskedBy;
}

export interface CompileOptions {
  readonly turn: TurnKind;
  /** Which communication surface the agent has; `mcp` unless it is a CLI agent-tools agent. */
  readonly surface?: SendSurfaceKind;
  /** issue 25: the other agents of the team (turn-only context: never in the thread-contract fingerprint). */
  readonly team?: readonly TeamMate[];
}

export interface CompiledDelivery {
  readonly kind: 'delivery' | 'recovery';
  readonly turn: TurnKind;
  /** Exactly what is written into the runtime session: turn context, blank line, delivery. */
  readonly text: string;
  readonly turnContext: string;
  /** Envelope(s), content and the tail reminder. */
  readonly delivery: string;
  /** Distinct exact targets of this delivery, in delivery order. */
  readonly targets: readonly TargetKey[];
  readonly wakeTokens: readonly string[];
  readonly fingerprints: { readonly threadContract: string; readonly turnContext: string };
  /** In order: the turn context, then the delivery (or recovery) text (§8.4). */
  readonly promptInputs: readonly [PromptInputDraft, PromptInputDraft];
}

export interface CompiledTurnContext {
  readonly text: string;
  readonly fingerprint: string;
  readonly threadContractFingerprint: string;
}

function surfaceOf(agent: PromptAgent, kind: SendSurfaceKind | undefined): SendSurface {
  return sendSurfaceFor(agent.toolNaming, kind ?? 'mcp');
}

/** The dynamic turn context of a wake, resume or fresh turn (§8.1). */
export function compileTurnContext(agent: PromptAgent, options: CompileOptions): CompiledTurnContext {
  const surface = surfaceOf(agent, options.surface);
  const team = renderTeamBlock(options.team ?? [], agent.language);
  const block = renderContractBlock(surface, agent.language);
  const text = team === '' ? block : `${block}\n\n${team}`;
  const thread = compileThreadContract(agent, surface);
  return {
    text,
    fingerprint: turnContextFingerprint(thread.text, text),
    threadContractFingerprint: thread.fingerprint,
  };
}

function distinctTargets(targets: readonly TargetKey[]): TargetKey[] {
  return [...new Set(targets)];
}

/**
 * One part of a written prompt, before the tail: the ordinary delivery of stored messages, or
 * the recovery continuation of one marker (§6.6). A prompt is one or more parts and ONE tail.
 */
export interface PromptPart {
  readonly kind: 'delivery' | 'recovery';
  readonly body: string;
  /** Distinct exact targets of the part, in order. */
  readonly targets: readonly TargetKey[];
  readonly wakeTokens: readonly string[];
}

/** What is written into the runtime for one or more parts: one turn context, the parts, one tail. */
export interface CompiledPrompt {
  readonly text: string;
  readonly turnContext: string;
  /** Distinct exact targets of all parts, in order: the ones the tail names. */
  readonly targets: readonly TargetKey[];
  readonly fingerprints: CompiledDelivery['fingerprints'];
  /**
   * §8.4, in order: the turn context (with every part's wakes), then each part's text with
   * its wakes; the last part's text ends with the tail, so the records join into what was written.
   */
  readonly promptInputs: readonly PromptInputDraft[];
}

/**
 * issue 24: one tail reminder per written prompt, whatever the batch — a recovery continuation
 * written together with ordinary deliveries gets no second reminder (§8.2: "appended once at
 * the end"). The tail names every part's exact targets.
 */
export function compilePrompt(
  agent: PromptAgent,
  parts: readonly PromptPart[],
  options: CompileOptions,
): CompiledPrompt {
  if (parts.length === 0) throw new Error('internal: compilePrompt needs at least one part');
  const surface = surfaceOf(agent, options.surface);
  const context = compileTurnContext(agent, options);
  const turnContext = context.text;
  const targets = distinctTargets(parts.flatMap((p) => p.targets));
  const tail = renderTailReminder(surface, agent.language, targets);
  const last = parts.length - 1;
  const texts = parts.map((p, i) => (i === last ? `${p.body}\n\n${tail}` : p.body));
  return {
    text: [turnContext, ...texts].join('\n\n'),
    turnContext,
    targets,
    fingerprints: { threadContract: context.threadContractFingerprint, turnContext: context.fingerprint },
    promptInputs: [
      {
        agentId: agent.id,
        wakeTokens: [...new Set(parts.flatMap((p) => p.wakeTokens))],
        kind: 'turn_context',
        text: turnContext,
      },
      ...parts.map((p, i) => ({ agentId: agent.id, wakeTokens: p.wakeTokens, kind: p.kind, text: texts[i] as string })),
    ],
  };
}

function assemble(agent: PromptAgent, options: CompileOptions, part: PromptPart): CompiledDelivery {
  const prompt = compilePrompt(agent, [part], options);
  const delivery = prompt.promptInputs[1]?.text as string;
  return {
    kind: part.kind,
    turn: options.turn,
    text: prompt.text,
    turnContext: prompt.turnContext,
    delivery,
    targets: part.targets,
    wakeTokens: part.wakeTokens,
    fingerprints: prompt.fingerprints,
    promptInputs: [
      { agentId: agent.id, wakeTokens: part.wakeTokens, kind: 'turn_context', text: prompt.turnContext },
      { agentId: agent.id, wakeTokens: part.wakeTokens, kind: part.kind, text: delivery },
    ],
  };
}

/** The delivery part of stored messages: their envelopes, in order (several wakes, possibly several targets). */
export function deliveryPart(messages: readonly DeliveryMessage[], language: PromptLanguage = 'en'): PromptPart {
  if (messages.length === 0) throw new Error('internal: a delivery needs at least one message');
  return {
    kind: 'delivery',
    body: messages
      .map((m) =>
        m.askedBy === undefined
          ? renderEnvelope(m)
          : `${renderAskLine(m.askedBy, m.target, language)}\n${renderEnvelope(m)}`,
      )
      .join('\n\n'),
    targets: distinctTargets(messages.map((m) => m.target)),
    wakeTokens: messages.map((m) => m.wakeToken),
  };
}

/**
 * Compiles one delivery: a single wake, or a batch of several messages delivered in one turn
 * (several wakes, possibly several targets; each target stays exact, §6.6/§8.3).
 */
export function compileDelivery(
  agent: PromptAgent,
  messages: readonly DeliveryMessage[],
  options: CompileOptions,
): CompiledDelivery {
  if (messages.length === 0) throw new Error('internal: compileDelivery needs at least one message');
  return assemble(agent, options, deliveryPart(messages, agent.language));
}

/** A persisted context-recovery marker (§6.6): one exact target and its frontier. */
export interface RecoveryMarker {
  /** The deterministic synthetic message id of the continuation (never the original wake's). */
  readonly syntheticMessageId: string;
  /** The synthetic recovery wake's token (never a revived original token). */
  readonly wakeToken: string;
  readonly target: TargetKey;
  /** Highest unresolved TargetSeq of that target when the context overflowed. */
  readonly targetSeq: number;
}

/** What ended the session a recovery continues (issue 16); `context_overflow` when not given. */
export type RecoveryPromptCause = 'context_overflow' | 'process_replaced' | 'daemon_restarted';

const RECOVERY_CAUSE_COPY: Readonly<Record<PromptLanguage, Readonly<Record<RecoveryPromptCause, string>>>> = {
  en: {
    context_overflow:
      'Your previous runtime session ended because its context window was full; this is a fresh session.',
    process_replaced: 'Your runtime process was restarted while you were handling inputs.',
    daemon_restarted: 'AgentTeam restarted while you were handling inputs.',
  },
  'zh-CN': {
    context_overflow: '你之前的 runtime 会话因 context window 超限而结束；这是一个新的会话。',
    process_replaced: '你处理输入时，runtime 进程被重新启动了。',
    daemon_restarted: '你处理输入时，AgentTeam 重新启动了。',
  },
};

const RECOVERY_COPY: Readonly<Record<PromptLanguage, (seq: number, again: boolean) => string>> = {
  en: (seq, again) =>
    `Inputs in this conversation up to seq ${seq} may still need a result from you.${again ? ' Those not yet answered follow again below.' : ''}`,
  'zh-CN': (seq, again) =>
    `这个 conversation 中直到 seq ${seq} 的输入可能仍需要你给出结果。${again ? '尚未得到回复的输入在下面再次给出。' : ''}`,
};

export interface RecoveryOptions extends Omit<CompileOptions, 'turn'> {
  /** What ended the session (default `context_overflow`). */
  readonly cause?: RecoveryPromptCause;
  /**
   * issue 16: the stored inputs of this target that provably never reached a reply, re-delivered
   * after the recovery block in their own envelopes (same target only: §6.6 projects no other).
   */
  readonly messages?: readonly DeliveryMessage[];
}

/**
 * The context-recovery continuation (§6.6): a fresh-turn `recovery` delivery for exactly one
 * persisted target. Other targets of the same recovery batch are not projected into it.
 */
export function compileRecovery(
  agent: PromptAgent,
  marker: RecoveryMarker,
  options: RecoveryOptions = {},
): CompiledDelivery {
  const compile = options.surface === undefined ? {} : { surface: options.surface };
  return assemble(agent, { ...compile, turn: 'fresh' }, recoveryPart(agent, marker, options));
}

/** The recovery part of one marker (§6.6): its block, then the same target's unanswered inputs again. */
export function recoveryPart(agent: PromptAgent, marker: RecoveryMarker, options: RecoveryOptions = {}): PromptPart {
  const { cause = 'context_overflow', messages = [] } = options;
  const seq = checkedSeq(marker.targetSeq, 'TargetSeq');
  const target = checkedTarget(marker.target);
  const again = messages.filter((m) => m.target === marker.target);
  const head = `<agentteam-recovery id="${checkedId(marker.syntheticMessageId, 'synthetic message id')}" target="${target}" seq="${seq}">`;
  const copy = `${RECOVERY_CAUSE_COPY[agent.language][cause]} ${RECOVERY_COPY[agent.language](seq, again.length > 0)}`;
  const envelopes = again.map((m) => `\n\n${renderEnvelope(m)}`).join('');
  const body = `${head}\n${copy}\n</agentteam-recovery>${envelopes}`;
  return { kind: 'recovery', body, targets: [marker.target], wakeTokens: [marker.wakeToken] };
}

/** A wake the session already holds, resumed after a usage pause (issue 38): its exact target and TargetSeq. */
export interface ResumedWake {
  readonly target: TargetKey;
  readonly targetSeq: number;
  readonly wakeToken: string;
}

const RESUME_COPY: Readonly<Record<PromptLanguage, (seq: number) => string>> = {
  en: (seq) =>
    `The usage limit that paused your work has reset. Continue the work on the inputs of this conversation up to seq ${seq} that you were handling in this session; they are not repeated here.`,
  'zh-CN': (seq) =>
    `暂停你工作的用量限制已重置。请继续处理你在本会话中处理的、这个 conversation 中直到 seq ${seq} 的输入；这里不再重复它们。`,
};

/**
 * issue 38: the continuation of wakes a usage pause took back from a session that still holds
 * their inputs: one block per exact target, never the task again (the operator's task reaches a
 * session once per wake). The tail names the targets, as for any delivery (§8.2).
 */
export function resumePart(wakes: readonly ResumedWake[], language: PromptLanguage = 'en'): PromptPart {
  if (wakes.length === 0) throw new Error('internal: a continuation needs at least one wake');
  const targets = distinctTargets(wakes.map((w) => w.target));
  const body = targets
    .map((target) => {
      const seq = Math.max(
        ...wakes.filter((w) => w.target === target).map((w) => checkedSeq(w.targetSeq, 'TargetSeq')),
      );
      return `<agentteam-resume target="${checkedTarget(target)}" seq="${seq}">\n${RESUME_COPY[language](seq)}\n</agentteam-resume>`;
    })
    .join('\n\n');
  return { kind: 'delivery', body, targets, wakeTokens: wakes.map((w) => w.wakeToken) };
}
