/**
 * The Codex adapter over `codex app-server` (JSON-RPC on stdio; research/runtimes.md §3):
 * `initialize` + `initialized`, `thread/start` — or `thread/resume` when the stored thread was
 * opened under the same thread-contract fingerprint (contract §8.1: the contract block is not
 * part of it, so prompt changes never force a fresh thread) — then one `turn/start` per
 * delivery and per final-check on that thread. Notifications map onto the runtime events;
 * server→client requests are answered deterministically (nothing here can approve a command,
 * a file change or a permission: the agent's only effect on AgentTeam is the MCP tool).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Subject, type Observable } from 'rxjs';
import type { DaemonLog } from '../../daemon-types.js';
import {
  boundedDetail,
  fail,
  ok,
  type AgentRuntime,
  type RuntimeDiagnostics,
  type RuntimeEvent,
  type RuntimePrompt,
  type RuntimeResult,
  type SubmitReceipt,
} from '../agent-runtime.js';
import { PromptQueue } from '../prompt-queue.js';
import { RuntimeProcess } from '../runtime-process.js';
import { runtimeBaseEnv } from '../runtime-env.js';
import { CodexRpcClient, type RpcError, type RpcNotification, type RpcServerRequest } from './codex-rpc-client.js';
import { CODEX_MCP_TOKEN_ENV, writeCodexHome, type CodexProvider } from './codex-config.js';

export interface CodexRuntimeOptions {
  readonly agentId: string;
  /** The `codex` executable. */
  readonly command: string;
  /** The agent's own args (e.g. `-c key=value` overrides), passed after `app-server`. */
  readonly args: readonly string[];
  /** The agent's own env, on top of the inherited basics; the daemon's isolation vars win. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Per-agent runtime home: HOME and CODEX_HOME live under it. */
  readonly home: string;
  readonly mcp: { readonly url: string; readonly token: string };
  readonly model: string | null;
  readonly provider: CodexProvider | null;
  /** Thread identity (contract §8.1): the fingerprint decides resume vs fresh thread. */
  readonly threadContract: { readonly fingerprint: string; readonly developerInstructions: string | null };
  readonly readyTimeoutMs?: number;
  readonly log?: DaemonLog;
}

interface StoredThread {
  readonly threadId: string;
  readonly fingerprint: string;
}

const CLIENT_INFO = { name: 'agentteam', title: 'AgentTeam Desktop', version: '0.1.0' };
const THREAD_FILE = 'agentteam-thread.json';
const DECLINE_REASON =
  'AgentTeam runs this agent without interactive approvals; only the agentteam MCP tools are available.';

/**
 * Deterministic answers to Codex's server→client requests (research/runtimes.md §3: they must
 * be answered, or the turn hangs). Everything that would need a person is declined.
 */
export function answerCodexServerRequest(
  r: RpcServerRequest,
): { readonly result: unknown } | { readonly error: RpcError } {
  switch (r.method) {
    case 'item/commandExecution/requestApproval':
    case 'item/fileChange/requestApproval':
      return { result: { decision: 'decline' } };
    case 'execCommandApproval':
    case 'applyPatchApproval':
      return { result: { decision: { denied: { rejection: DECLINE_REASON } } } };
    case 'item/permissions/requestApproval':
      return { result: { permissions: {}, scope: 'turn' } };
    case 'mcpServer/elicitation/request':
      return { result: { action: 'decline', content: null, _meta: null } };
    case 'item/tool/requestUserInput':
      return { result: { answers: {} } };
    case 'item/tool/call':
      return { result: { contentItems: [{ type: 'inputText', text: DECLINE_REASON }], success: false } };
    default:
      return { error: { code: -32601, message: `AgentTeam does not handle "${r.method}"` } };
  }
}

function get(obj: unknown, ...path: string[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export class CodexRuntime implements AgentRuntime {
  readonly kind = 'codex' as const;
  readonly #o: CodexRuntimeOptions;
  readonly #events = new Subject<RuntimeEvent>();
  readonly events$: Observable<RuntimeEvent> = this.#events.asObservable();
  readonly #queue: PromptQueue;
  #generation = 0;
  #proc: RuntimeProcess | null = null;
  #rpc: CodexRpcClient | null = null;
  #threadId: string | null = null;
  #turnId: string | null = null;
  #lastError: string | null = null;
  #lastCompletedTurnId: string | null = null;
  #stopping = false;

  constructor(options: CodexRuntimeOptions) {
    this.#o = options;
    this.#queue = new PromptQueue((p) => this.#startTurn(p));
  }

  get generation(): number {
    return this.#generation;
  }

  diagnostics(): RuntimeDiagnostics {
    return { pid: this.#proc?.pid ?? null, stderrTail: this.#proc?.stderrTail ?? '' };
  }

  async start(): Promise<RuntimeResult<{ generation: number; sessionId: string; resumed: boolean }>> {
    if (this.#proc !== null && this.#proc.exit === null)
      return fail('session_failed', 'internal: the Codex runtime is already running; stop it first');
    this.#stopping = false;
    const generation = ++this.#generation;
    const o = this.#o;
    const codexHome = join(o.home, 'codex-home');
    await writeCodexHome(codexHome, { mcpUrl: o.mcp.url, model: o.model, provider: o.provider });
    const env = {
      ...runtimeBaseEnv(),
      ...o.env,
      HOME: o.home,
      CODEX_HOME: codexHome,
      [CODEX_MCP_TOKEN_ENV]: o.mcp.token,
    };
    const proc = RuntimeProcess.spawn({ command: o.command, args: ['app-server', ...o.args], env, cwd: o.cwd });
    this.#proc = proc;
    const rpc = new CodexRpcClient(proc.stdout, proc.stdin, {
      onNotification: (n) => this.#onNotification(generation, n),
      onServerRequest: (r) => {
        o.log?.info('codex: answered server request', { agentId: o.agentId, method: r.method });
        return answerCodexServerRequest(r);
      },
      onBadLine: () => o.log?.debug('codex: non-JSON stdout line ignored', { agentId: o.agentId }),
    });
    this.#rpc = rpc;
    void proc.exited.then((exit) => this.#onExit(generation, exit.code, exit.signal));

    const opened = await this.#withTimeout(this.#open(rpc), o.readyTimeoutMs ?? 30_000);
    if (!opened.ok) {
      await this.#kill();
      const stderr = boundedDetail(
        proc.stderrTail
          .split('\n')
          .filter((l) => l.trim() !== '')
          .slice(-3)
          .join(' | '),
        200,
      );
      return fail(opened.code, `${opened.message}${stderr ? ` (codex stderr: ${stderr})` : ''}`);
    }
    this.#threadId = opened.value.threadId;
    this.#events.next({ type: 'ready', generation, sessionId: opened.value.threadId, resumed: opened.value.resumed });
    return ok({ generation, sessionId: opened.value.threadId, resumed: opened.value.resumed });
  }

  async #open(rpc: CodexRpcClient): Promise<RuntimeResult<{ threadId: string; resumed: boolean }>> {
    const o = this.#o;
    const init = await rpc.request('initialize', { clientInfo: CLIENT_INFO, capabilities: null });
    if (!init.ok) return fail('not_ready', `codex app-server did not initialize: ${init.error.message}`);
    rpc.notify('initialized');
    const threadParams = {
      cwd: o.cwd,
      approvalPolicy: 'never',
      developerInstructions: o.threadContract.developerInstructions,
    };
    const stored = await this.#readThread();
    if (stored !== null && stored.fingerprint === o.threadContract.fingerprint) {
      const resumed = await rpc.request('thread/resume', { threadId: stored.threadId, ...threadParams });
      const id = str(get(resumed.ok ? resumed.result : null, 'thread', 'id'));
      if (id !== null) return ok({ threadId: id, resumed: true });
      o.log?.warn('codex: thread/resume failed; starting a fresh thread', {
        agentId: o.agentId,
        error: resumed.ok ? 'no thread id' : resumed.error.message,
      });
    }
    const started = await rpc.request('thread/start', { ...threadParams, sandbox: 'read-only' });
    if (!started.ok) return fail('session_failed', `codex thread/start failed: ${started.error.message}`);
    const id = str(get(started.result, 'thread', 'id'));
    if (id === null) return fail('protocol_error', 'codex thread/start answered without a thread id');
    await writeFile(
      join(o.home, THREAD_FILE),
      JSON.stringify({ threadId: id, fingerprint: o.threadContract.fingerprint } satisfies StoredThread),
      { mode: 0o600 },
    );
    return ok({ threadId: id, resumed: false });
  }

  async #readThread(): Promise<StoredThread | null> {
    try {
      const raw = JSON.parse(await readFile(join(this.#o.home, THREAD_FILE), 'utf8')) as Partial<StoredThread>;
      return typeof raw.threadId === 'string' && typeof raw.fingerprint === 'string'
        ? { threadId: raw.threadId, fingerprint: raw.fingerprint }
        : null;
    } catch {
      return null;
    }
  }

  async #withTimeout<T>(work: Promise<RuntimeResult<T>>, ms: number): Promise<RuntimeResult<T>> {
    const proc = this.#proc;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<RuntimeResult<T>>((resolve) => {
      timer = setTimeout(
        () => resolve(fail('not_ready', `codex app-server was not ready within ${Math.round(ms / 1000)} s`)),
        ms,
      );
    });
    const exited = (proc?.exited ?? new Promise<never>(() => undefined)).then(() =>
      fail(
        'spawn_failed',
        proc?.spawnError
          ? `could not start "${this.#o.command}": ${proc.spawnError.message}; check the agent's command in agentteam.json`
          : 'codex app-server exited during startup',
      ),
    );
    try {
      return await Promise.race([work, timeout, exited]);
    } finally {
      clearTimeout(timer);
    }
  }

  submit(prompt: RuntimePrompt): Promise<RuntimeResult<SubmitReceipt>> {
    if (this.#rpc === null || this.#rpc.closed || this.#threadId === null)
      return Promise.resolve(fail('not_running', 'the Codex runtime is not running'));
    return this.#queue.submit(prompt);
  }

  async #startTurn(prompt: RuntimePrompt): Promise<RuntimeResult<SubmitReceipt>> {
    const rpc = this.#rpc;
    const threadId = this.#threadId;
    if (rpc === null || threadId === null) return fail('not_running', 'the Codex runtime is not running');
    const generation = this.#generation;
    this.#lastError = null;
    const res = await rpc.request('turn/start', {
      threadId,
      input: [{ type: 'text', text: prompt.text, text_elements: [] }],
    });
    if (!res.ok) return fail('submit_failed', `codex turn/start failed: ${boundedDetail(res.error.message)}`);
    const turnId = str(get(res.result, 'turn', 'id'));
    // turn/started usually comes first; if not, an interrupt must still find the turn.
    if (turnId !== null && this.#turnId === null && turnId !== this.#lastCompletedTurnId) this.#turnId = turnId;
    return ok({ generation, turnId });
  }

  #onNotification(generation: number, n: RpcNotification): void {
    if (generation !== this.#generation) return;
    const p = n.params;
    const threadId = str(get(p, 'threadId'));
    if (threadId !== null && this.#threadId !== null && threadId !== this.#threadId) return;
    switch (n.method) {
      case 'turn/started': {
        const turnId = str(get(p, 'turn', 'id')) ?? 'unknown';
        this.#turnId = turnId;
        this.#lastError = null;
        this.#events.next({ type: 'turn.start', generation, turnId, at: Date.now() });
        return;
      }
      case 'item/started':
      case 'item/completed': {
        const item = get(p, 'item');
        const turnId = str(get(p, 'turnId')) ?? this.#turnId ?? 'unknown';
        const type = str(get(item, 'type'));
        if (type === 'mcpToolCall') {
          const tool = `${str(get(item, 'server')) ?? '?'}/${str(get(item, 'tool')) ?? '?'}`;
          const status =
            n.method === 'item/started' ? 'started' : get(item, 'status') === 'completed' ? 'completed' : 'failed';
          this.#events.next({ type: 'tool', generation, turnId, tool, status });
        } else if (type === 'agentMessage' && n.method === 'item/completed') {
          const text = str(get(item, 'text'));
          if (text !== null && text !== '') this.#events.next({ type: 'local_text', generation, turnId, text });
        }
        return;
      }
      case 'error': {
        // Kept for the turn's failure detail; Codex may still retry (willRetry).
        const message = str(get(p, 'error', 'message'));
        if (message !== null) this.#lastError = message;
        return;
      }
      case 'turn/completed': {
        const turnId = str(get(p, 'turn', 'id')) ?? this.#turnId ?? 'unknown';
        const status = str(get(p, 'turn', 'status'));
        const outcome = status === 'failed' ? 'failed' : status === 'interrupted' ? 'interrupted' : 'completed';
        const error =
          outcome === 'completed'
            ? null
            : boundedDetail(str(get(p, 'turn', 'error', 'message')) ?? this.#lastError ?? `codex turn ${outcome}`);
        this.#turnId = null;
        this.#lastCompletedTurnId = turnId;
        this.#events.next({ type: 'turn.end', generation, turnId, outcome, error, at: Date.now() });
        this.#queue.turnEnded();
        return;
      }
      default:
        return;
    }
  }

  #onExit(generation: number, code: number | null, signal: string | null): void {
    if (generation !== this.#generation) return;
    this.#queue.clear(fail('process_exited', 'the Codex runtime exited'));
    this.#rpc = null;
    this.#threadId = null;
    this.#turnId = null;
    this.#events.next({ type: 'exit', generation, code, signal, expected: this.#stopping });
  }

  async interrupt(): Promise<RuntimeResult<void>> {
    const rpc = this.#rpc;
    const threadId = this.#threadId;
    const turnId = this.#turnId;
    this.#queue.dropWaiting(fail('interrupt_failed', 'the prompt was dropped by an interrupt'));
    if (rpc === null || threadId === null) return fail('not_running', 'the Codex runtime is not running');
    // No turn running: nothing to cancel (the queue is already empty).
    if (turnId === null) return ok(undefined);
    const res = await rpc.request('turn/interrupt', { threadId, turnId });
    return res.ok
      ? ok(undefined)
      : fail('interrupt_failed', `codex turn/interrupt failed: ${boundedDetail(res.error.message)}`);
  }

  async #kill(): Promise<void> {
    this.#stopping = true;
    await this.#proc?.stop();
  }

  async stop(): Promise<void> {
    await this.#kill();
  }

  /** Tests: whether any process of the current process group is alive. */
  processGroupAlive(): boolean {
    return this.#proc?.groupAlive() ?? false;
  }

  /** Completes the event stream; call after `stop()` when the runtime is discarded. */
  dispose(): void {
    this.#events.complete();
  }
}
