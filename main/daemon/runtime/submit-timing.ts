/**
 * When a driver's `submit` has handed its prompt to the runtime (issue 19, runtime overhead):
 * Codex's `turn/start` line is written to its stdin, OpenCode's `prompt_async` request is handed
 * to node:http. What follows — Codex answering `turn/start`, OpenCode's 204 — is the CLI's time,
 * so bench/runtime-overhead.bench.ts can split "submit accepted" into ours and theirs.
 *
 * A `node:diagnostics_channel`: nothing is kept and, with no subscriber (the daemon itself never
 * subscribes), `publish` is skipped, so the product pays one boolean check per submit.
 */
import { channel } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import type { RuntimeKind } from '../../../shared/wake-status.js';

/** Messages: `{ runtime, at }`, `at` from `performance.now()` of this process. */
export const SUBMIT_WRITTEN_CHANNEL = 'agentteam:runtime:submit-written';

export interface SubmitWritten {
  readonly runtime: RuntimeKind;
  readonly at: number;
}

const submitWritten = channel(SUBMIT_WRITTEN_CHANNEL);

export function markSubmitWritten(runtime: RuntimeKind): void {
  if (submitWritten.hasSubscribers) submitWritten.publish({ runtime, at: performance.now() } satisfies SubmitWritten);
}
