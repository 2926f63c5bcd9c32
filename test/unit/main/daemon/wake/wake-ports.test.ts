/**
 * The ports bind to the parts built in parallel without adapters: these are the signatures the
 * store (`Store.insertWake/appendWakeEvent/listWakes/appendAudit`) and the prompt compiler
 * (`finalCheckRenderer`) publish on their branches, restated here so a drift fails typecheck.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { PromptLanguage } from '../../../../../shared/config.js';
import type { TargetKey } from '../../../../../shared/target.js';
import type { RuntimeKind, WakeStatus } from '../../../../../shared/wake-status.js';
import type { DeliveryClass, FinalCheckRenderer, WakeJournal } from '../../../../../main/daemon/wake/index.js';
import { wakeHarness } from '../../../../fixtures/wake-harness.js';

type PromptFinalCheckRenderer = (
  groups: Array<{
    target: TargetKey | null;
    wakes: Array<{ messageId: string; targetSeq: number; wakeToken: string }>;
  }>,
  ctx: { runtime: RuntimeKind; language: PromptLanguage },
) => string;

interface StoreLike {
  insertWake(w: {
    readonly wakeToken: string;
    readonly messageId: string;
    readonly agentId: string;
    readonly runtime: RuntimeKind;
    readonly target: TargetKey;
    readonly targetSeq: number;
    readonly deliveryClass: DeliveryClass;
  }): { readonly status: WakeStatus };
  appendWakeEvent(e: {
    readonly wakeToken: string;
    readonly kind: 'status' | 'beacon' | 'escalation' | 'final_check' | 'delivery' | 'alert';
    readonly status?: WakeStatus;
    readonly reason?: string;
    readonly detail?: string;
  }): boolean;
  listWakes(filter?: {
    readonly agentId?: string;
    readonly status?: WakeStatus;
    readonly activeOnly?: boolean;
    readonly target?: TargetKey;
    readonly limit?: number;
    readonly order?: 'oldest' | 'newest';
  }): Array<{
    readonly wakeToken: string;
    readonly messageId: string;
    readonly target: TargetKey;
    readonly targetSeq: number;
    readonly deliveryClass: DeliveryClass;
  }>;
  transaction<T>(fn: () => T): T;
  saveRecoveryBatch(
    agentId: string,
    markers: ReadonlyArray<{
      readonly target: TargetKey;
      readonly frontierSeq: number;
      readonly wakeTokens?: readonly string[];
    }>,
    cause?: string | null,
  ): unknown;
  appendAudit(a: {
    readonly agentId: string;
    readonly kind: 'cross_target_send';
    readonly target: TargetKey;
    readonly messageId: string;
    readonly detail?: string;
  }): void;
}

describe('wake ports', () => {
  it('the store binds as the journal and the prompt compiler as the final-check renderer', () => {
    expectTypeOf<StoreLike>().toExtend<WakeJournal>();
    expectTypeOf<PromptFinalCheckRenderer>().toExtend<FinalCheckRenderer>();
  });

  it('the renderer gets the agent runtime and language so it names the runtime send tool', () => {
    const h = wakeHarness({ runtime: 'codex' });
    h.wake();
    h.lifecycle.onTurnBoundary(h.agentId, 0);
    expect(h.renderContexts).toEqual([{ agentId: 'claude', runtime: 'codex', language: 'en' }]);
  });
});
