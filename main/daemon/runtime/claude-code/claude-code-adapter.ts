/**
 * The Claude Code runtime adapter: the shared skeleton (runtime-skeleton.ts: process group,
 * prompt queue, restart with capped backoff, session store keyed by the thread-contract
 * fingerprint) around the Claude Code stream-json driver (claude-driver.ts).
 */
import type { SchedulerLike } from 'rxjs';
import type { DaemonLog } from '../../daemon-log.js';
import type { TurnBoundaryHost } from '../runtime-adapter.js';
import type { RuntimeSessionStore } from '../runtime-session-store.js';
import { RuntimeSkeleton } from '../runtime-skeleton.js';
import type { RestartPolicy } from '../supervisor.js';
import { ClaudeDriver, type ClaudeDriverOptions } from './claude-driver.js';

export interface ClaudeCodeAdapterOptions extends ClaudeDriverOptions {
  /** Thread-contract fingerprint of this start; a stored session is resumed only when it matches. */
  readonly threadContractFingerprint: string;
  readonly sessionStore: RuntimeSessionStore;
  readonly host: TurnBoundaryHost;
  readonly restartPolicy?: RestartPolicy;
  /** Schedules the start timeout, restart delays and stop grace periods (TestScheduler in tests). */
  readonly scheduler?: SchedulerLike;
  readonly log?: DaemonLog;
}

export class ClaudeCodeAdapter extends RuntimeSkeleton {
  constructor(options: ClaudeCodeAdapterOptions) {
    super({ ...options, driver: new ClaudeDriver(options) });
  }
}
