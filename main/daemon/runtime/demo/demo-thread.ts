/**
 * issue 30 "agents off the daemon's loop": the demo runtime as the daemon sees it. The agent
 * itself (DemoRuntime: its turns, its MCP client, its HTTP calls) runs in one worker thread
 * shared by every demo agent of the process (demo-worker.ts), as a real CLI runs in its own
 * process; this adapter is the same RuntimeAdapter the host always had, relaying over the
 * thread's port: deliveries, interrupts and stops in; events, turn boundaries, approvals and log
 * lines out. Nothing of an agent's work runs on the daemon's main thread.
 *
 * One thread for all demo agents, not one each: a thread costs its own V8 heap and module load
 * (the MCP SDK, rxjs, zod), and the demo agents are small. The thread is unref'd: it never keeps
 * the process alive. If it dies, every demo agent on it sees its runtime exit unexpectedly.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DaemonLog } from '../../daemon-log.js';
import type { McpEndpoint } from '../../mcp/mcp-server.js';
import { askApprovalHost } from '../approval-port.js';
import {
  boundedDetail,
  type DeliverResult,
  type RuntimeAdapter,
  type RuntimeEvent,
  type StartResult,
  type TurnBoundaryHost,
} from '../runtime-adapter.js';
import { RuntimeEventStream } from '../runtime-event-stream.js';
import type { FromDemoWorker, ReplyValue, ToDemoWorker } from './demo-thread-protocol.js';
import { withdrawn } from '../prompt-queue.js';

export interface DemoThreadOptions {
  readonly agentId: string;
  readonly mcp: McpEndpoint;
  readonly host: TurnBoundaryHost;
  readonly env: Readonly<Record<string, string>>;
  readonly workspace: string;
  readonly log?: DaemonLog;
}

/** Where the worker's entry is: beside this file in a source checkout, beside the built entry (or one folder up from a chunk) when built. */
export function demoWorkerEntry(from: string = import.meta.url): URL {
  if (from.endsWith('.ts')) return new URL('./demo-worker.ts', from);
  for (const rel of ['./demo-worker.js', '../demo-worker.js']) {
    const url = new URL(rel, from);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return new URL('./demo-worker.js', from);
}

type Call = { resolve(value: ReplyValue): void; reject(error: Error): void };

/** The one worker thread of the process's demo agents, and the routing of its messages. */
class DemoThread {
  static #shared: DemoThread | null = null;

  static shared(): DemoThread {
    DemoThread.#shared ??= new DemoThread(demoWorkerEntry());
    return DemoThread.#shared;
  }

  readonly #worker: Worker;
  readonly #agents = new Map<number, DemoThreadRuntime>();
  readonly #calls = new Map<number, Call>();
  #nextAgent = 0;
  #nextCall = 0;
  #dead: string | null = null;

  private constructor(entry: URL) {
    // A source checkout loads the worker's TypeScript through tsx, as the daemon's own is loaded.
    this.#worker = new Worker(entry, { execArgv: entry.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [] });
    this.#worker.on('message', (m: FromDemoWorker) => this.#onMessage(m));
    this.#worker.on('error', (err) => this.#die(`the demo agents' thread failed: ${err.message}`));
    this.#worker.on('exit', (code) => this.#die(`the demo agents' thread exited (${code})`));
    // unref() after the listeners: a 'message' listener added later refs the worker's port again,
    // and the thread then kept a stopped `agentteam serve` alive until the CLI's 2 s exit fallback.
    this.#worker.unref();
  }

  get threadId(): number {
    return this.#worker.threadId;
  }

  add(runtime: DemoThreadRuntime): number {
    const id = ++this.#nextAgent;
    this.#agents.set(id, runtime);
    return id;
  }

  remove(id: number): void {
    this.#agents.delete(id);
  }

  request(message: ToDemoWorker): Promise<ReplyValue> {
    if (this.#dead !== null) return Promise.reject(new Error(this.#dead));
    return new Promise((resolve, reject) => {
      this.#calls.set(message.call, { resolve, reject });
      this.#worker.postMessage(message);
    });
  }

  nextCall(): number {
    return ++this.#nextCall;
  }

  answer(agent: number, call: number, outcome: { value: unknown } | { error: string }): void {
    if (this.#dead === null) this.#worker.postMessage({ type: 'answer', agent, call, ...outcome });
  }

  #onMessage(m: FromDemoWorker): void {
    if (m.type === 'reply') {
      const call = this.#calls.get(m.call);
      this.#calls.delete(m.call);
      if ('error' in m) call?.reject(new Error(m.error));
      else call?.resolve(m.value);
      return;
    }
    const runtime = this.#agents.get(m.agent);
    if (runtime === undefined) return;
    if (m.type === 'event') runtime.onEvent(m.event);
    else if (m.type === 'log') runtime.onLog(m.level, m.message, m.fields);
    else if (m.type === 'boundary') runtime.onBoundary(m.call);
    else runtime.onApproval(m.call, m.ask);
  }

  #die(reason: string): void {
    if (this.#dead !== null) return;
    this.#dead = reason;
    if (DemoThread.#shared === this) DemoThread.#shared = null;
    for (const call of this.#calls.values()) call.reject(new Error(reason));
    this.#calls.clear();
    for (const runtime of this.#agents.values()) runtime.onThreadDied(reason);
    this.#agents.clear();
  }
}

export class DemoThreadRuntime implements RuntimeAdapter {
  readonly runtime = 'demo' as const;
  readonly #events = new RuntimeEventStream();
  readonly events$ = this.#events.events$;
  #thread: DemoThread | null = null;
  #agent = 0;
  #started = false;
  #stopped = false;
  #exited = false;
  /** The worker stamps nothing: one runtime, one generation (as the in-process demo had). */
  readonly #generation = 1;

  constructor(private readonly options: DemoThreadOptions) {}

  /** The thread the agent runs in, once started (never the daemon's: `worker_threads.threadId` there). */
  get threadId(): number | null {
    return this.#thread?.threadId ?? null;
  }

  async start(): Promise<StartResult> {
    if (this.#started) return { ok: true, sessionId: null, resumed: false };
    let thread: DemoThread;
    try {
      thread = DemoThread.shared();
    } catch (err) {
      return {
        ok: false,
        code: 'spawn_failed',
        message: boundedDetail(`The demo agents' thread could not start: ${String(err)}`),
      };
    }
    this.#thread = thread;
    this.#agent = thread.add(this);
    const { agentId, mcp, env, workspace } = this.options;
    try {
      const result = (await thread.request({
        type: 'start',
        agent: this.#agent,
        call: thread.nextCall(),
        spec: {
          agentId,
          mcp: { url: mcp.url, token: mcp.token, headers: { ...mcp.headers } },
          env: { ...env },
          workspace,
          debug: this.options.log?.debugEnabled ?? false,
        },
      })) as StartResult;
      this.#started = result.ok;
      return result;
    } catch (err) {
      return { ok: false, code: 'exited', message: boundedDetail(err instanceof Error ? err.message : String(err)) };
    }
  }

  async deliver(text: string, due?: () => boolean): Promise<DeliverResult> {
    const thread = this.#thread;
    // issue 38: its wakes were paused or ended before it was handed over: never written.
    if (due !== undefined && !due()) return withdrawn();
    if (thread === null || !this.#started || this.#stopped)
      return {
        ok: false,
        code: 'not_running',
        message: 'The demo runtime is not running; the delivery was not written.',
      };
    try {
      return (await thread.request({
        type: 'deliver',
        agent: this.#agent,
        call: thread.nextCall(),
        text,
      })) as DeliverResult;
    } catch (err) {
      return {
        ok: false,
        code: 'write_failed',
        message: boundedDetail(err instanceof Error ? err.message : String(err)),
      };
    }
  }

  async interrupt(): Promise<void> {
    const thread = this.#thread;
    if (thread === null || this.#stopped) return;
    await thread.request({ type: 'interrupt', agent: this.#agent, call: thread.nextCall() }).catch(() => undefined);
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    const thread = this.#thread;
    // The worker's agent emits its own `exit` before it answers the stop (one port, in order).
    if (thread !== null)
      await thread.request({ type: 'stop', agent: this.#agent, call: thread.nextCall() }).catch(() => undefined);
    thread?.remove(this.#agent);
    if (!this.#exited) this.#emit({ type: 'exit', code: 0, signal: null, expected: true });
    this.#events.complete();
  }

  onEvent(event: RuntimeEvent): void {
    this.#emit(event);
  }

  onLog(level: 'info' | 'warn' | 'error' | 'debug', message: string, fields?: Record<string, unknown>): void {
    this.options.log?.[level](message, { agentId: this.options.agentId, ...fields });
  }

  onBoundary(call: number): void {
    this.options.host.onTurnBoundary().then(
      (value) => this.#thread?.answer(this.#agent, call, { value }),
      (err: unknown) =>
        this.#thread?.answer(this.#agent, call, { error: err instanceof Error ? err.message : String(err) }),
    );
  }

  onApproval(call: number, ask: Parameters<typeof askApprovalHost>[1]): void {
    void askApprovalHost(this.options.host.requestApproval, ask, (error) =>
      this.options.log?.error('approval request failed', { agentId: this.options.agentId, error }),
    ).then((value) => this.#thread?.answer(this.#agent, call, { value }));
  }

  onThreadDied(reason: string): void {
    if (this.#stopped) return;
    this.#emit({ type: 'runtime_error', detail: boundedDetail(reason) });
    this.#emit({ type: 'exit', code: null, signal: null, expected: false });
    this.#started = false;
    this.#thread = null;
  }

  #emit(event: RuntimeEvent): void {
    if (event.type === 'exit') this.#exited = true;
    this.#events.emit(this.#generation, event);
  }
}
