/**
 * The `prompt_input` trajectory (contract §8.4, §6.4): every rendered turn context, delivery
 * text, final-check prompt and recovery continuation is stored, linked to its wake(s), and read
 * back in order by the UI's inspector. A small service over a port the store implements.
 */
import type { PromptInput, PromptInputKind } from '../../../shared/api/contract.js';
import type { FinalCheckGroup } from '../wake/pending-delivery.js';
import type { FinalCheckRenderer } from '../wake/wake-ports.js';
import { finalCheckRenderer } from './final-check.js';
import type { ToolNamingOf } from './tool-names.js';

export type { PromptInputKind };

/** One entry to store: what was written into the runtime session, and for which wakes. */
export interface PromptInputDraft {
  readonly agentId: string;
  readonly wakeTokens: readonly string[];
  readonly kind: PromptInputKind;
  readonly text: string;
}

/**
 * The port the store satisfies. Synchronous like `node:sqlite`; `listPromptInputs` answers the
 * entries linked to a wake in the order they were appended.
 */
export interface PromptInputStore {
  appendPromptInput(input: { agentId: string; wakeTokens: string[]; kind: PromptInputKind; text: string }): PromptInput;
  /** Several entries, in order, in one durable commit (issue 19); without it each is appended alone. */
  appendPromptInputs?(
    inputs: ReadonlyArray<{ agentId: string; wakeTokens: string[]; kind: PromptInputKind; text: string }>,
  ): PromptInput[];
  listPromptInputs(wakeToken: string): PromptInput[];
}

export class PromptTrajectory {
  constructor(private readonly store: PromptInputStore) {}

  /** Stores drafts in order (a compiled delivery's turn context, then its delivery text). */
  record(drafts: readonly PromptInputDraft[]): PromptInput[] {
    const inputs = drafts.map((d) => ({
      agentId: d.agentId,
      wakeTokens: [...d.wakeTokens],
      kind: d.kind,
      text: d.text,
    }));
    if (inputs.length > 1 && this.store.appendPromptInputs !== undefined) return this.store.appendPromptInputs(inputs);
    return inputs.map((i) => this.store.appendPromptInput(i));
  }

  /** Stores a final-check prompt, linked to every wake it lists (§6.4: injection visible in the trajectory). */
  recordFinalCheck(agentId: string, groups: readonly FinalCheckGroup[], text: string): PromptInput {
    const wakeTokens = [...new Set(groups.flatMap((g) => g.wakes.map((w) => w.wakeToken)))];
    return this.store.appendPromptInput({ agentId, wakeTokens, kind: 'final_check', text });
  }

  /** Every entry of one wake, oldest first. */
  list(wakeToken: string): PromptInput[] {
    return this.store.listPromptInputs(wakeToken);
  }
}

/**
 * The wake lifecycle's final-check port (final-check.ts's one renderer), recording each rendered
 * prompt before returning it. The entry is written before the injection is attempted, so an injection that
 * then fails still shows what was about to be written.
 */
export function recordingFinalCheckRenderer(trajectory: PromptTrajectory, namingOf: ToolNamingOf): FinalCheckRenderer {
  const render = finalCheckRenderer(namingOf);
  return (groups, ctx) => {
    const text = render(groups, ctx);
    trajectory.recordFinalCheck(ctx.agentId, groups, text);
    return text;
  };
}
