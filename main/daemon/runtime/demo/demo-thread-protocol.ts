/**
 * issue 30: the messages between the daemon's main thread (demo-thread.ts) and the demo agents'
 * worker thread (demo-worker.ts). Plain data only (structured clone): the agent's events, its
 * calls into the host (the turn boundary, an approval, a log line) and the host's calls into it.
 */
import type { ApprovalAsk } from '../approval-port.js';
import type { DeliverResult, RuntimeEvent, StartResult } from '../runtime-adapter.js';

/** What a demo agent in the worker is built from (DemoRuntimeOptions without the host, log and scheduler). */
export interface DemoAgentSpec {
  readonly agentId: string;
  readonly mcp: { readonly url: string; readonly token: string; readonly headers: Readonly<Record<string, string>> };
  readonly env: Readonly<Record<string, string>>;
  readonly workspace: string;
  /** Whether the daemon's log takes debug lines (so the worker builds no fields for them otherwise). */
  readonly debug: boolean;
}

/** Main thread → worker. `call` numbers a request the worker answers with a `reply`. */
export type ToDemoWorker =
  | { readonly type: 'start'; readonly agent: number; readonly call: number; readonly spec: DemoAgentSpec }
  | { readonly type: 'deliver'; readonly agent: number; readonly call: number; readonly text: string }
  | { readonly type: 'interrupt'; readonly agent: number; readonly call: number }
  | { readonly type: 'stop'; readonly agent: number; readonly call: number }
  /** The answer to the worker's `boundary` or `approval` request. */
  | { readonly type: 'answer'; readonly agent: number; readonly call: number; readonly value: unknown }
  | { readonly type: 'answer'; readonly agent: number; readonly call: number; readonly error: string };

/** Worker → main thread. */
export type FromDemoWorker =
  | { readonly type: 'event'; readonly agent: number; readonly event: RuntimeEvent }
  | { readonly type: 'reply'; readonly agent: number; readonly call: number; readonly value: ReplyValue }
  | { readonly type: 'reply'; readonly agent: number; readonly call: number; readonly error: string }
  | { readonly type: 'boundary'; readonly agent: number; readonly call: number }
  | { readonly type: 'approval'; readonly agent: number; readonly call: number; readonly ask: ApprovalAsk }
  | {
      readonly type: 'log';
      readonly agent: number;
      readonly level: 'info' | 'warn' | 'error' | 'debug';
      readonly message: string;
      readonly fields?: Record<string, unknown>;
    };

export type ReplyValue = StartResult | DeliverResult | null;
