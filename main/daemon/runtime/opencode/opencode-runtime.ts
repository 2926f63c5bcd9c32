/**
 * The OpenCode adapter over `opencode serve` (HTTP + SSE; research/runtimes.md §3): the daemon
 * picks a free 127.0.0.1 port (OpenCode ignores `--port 0`), protects the server with a fresh
 * `OPENCODE_SERVER_PASSWORD` per process, opens (or, under the same thread-contract
 * fingerprint, reuses) one session, and sends one `prompt_async` per delivery and per
 * final-check. `GET /event` drives the turn: `session.status` busy → turn start, idle → turn
 * end; tool parts → tool events; `session.error` → the turn fails (aborts: interrupted).
 */
import { randomBytes } from 'node:crypto';
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
import { freePort } from '../free-port.js';
import { PromptQueue } from '../prompt-queue.js';
import { runtimeBaseEnv } from '../runtime-env.js';
import { RuntimeProcess } from '../runtime-process.js';
import { OpencodeClient, type EventStream, type OpencodeEvent } from './opencode-client.js';
import { opencodeDirs, opencodeIsolationEnv, writeOpencodeHome, type OpencodeProvider } from './opencode-config.js';

export interface OpencodeRuntimeOptions {
  readonly agentId: string;
  /** The `opencode` executable. */
  readonly command: string;
  /** The agent's own args, after `serve --port N --hostname 127.0.0.1 --pure`. */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Per-agent runtime home: HOME and the XDG dirs live under it. */
  readonly home: string;
  readonly mcp: { readonly url: string; readonly token: string };
  readonly model: string | null;
  readonly provider: OpencodeProvider | null;
  readonly threadContract: { readonly fingerprint: string };
  readonly readyTimeoutMs?: number;
  readonly log?: DaemonLog;
}

interface StoredSession {
  readonly sessionId: string;
  readonly fingerprint: string;
}

const SESSION_FILE = 'agentteam-session.json';
/** A port taken between our probe and OpenCode's bind shows as a failed readiness: try another. */
const PORT_ATTEMPTS = 3;

function get(obj: unknown, ...path: string[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Waits without holding the process open; readiness polling only (never in a timed pipeline). */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export class OpencodeRuntime implements AgentRuntime {
  readonly kind = 'opencode' as const;
  readonly #o: OpencodeRuntimeOptions;
  readonly #events = new Subject<RuntimeEvent>();
  readonly events$: Observable<RuntimeEvent> = this.#events.asObservable();
  readonly #queue: PromptQueue;
  #generation = 0;
  #proc: RuntimeProcess | null = null;
  #client: OpencodeClient | null = null;
  #stream: EventStream | null = null;
  #sessionId: string | null = null;
  #turnSeq = 0;
  #turnId: string | null = null;
  #turnError: { message: string; aborted: boolean } | null = null;
  readonly #assistantMessages = new Set<string>();
  readonly #toolStates = new Map<string, string>();
  #stopping = false;
  #abortRequested = false;

  constructor(options: OpencodeRuntimeOptions) {
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
      return fail('session_failed', 'internal: the OpenCode runtime is already running; stop it first');
    let last: RuntimeResult<{ generation: number; sessionId: string; resumed: boolean }> = fail(
      'not_ready',
      'opencode serve did not start',
    );
    for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt += 1) {
      last = await this.#startOnce();
      if (last.ok || last.code === 'spawn_failed') return last;
    }
    return last;
  }

  async #startOnce(): Promise<RuntimeResult<{ generation: number; sessionId: string; resumed: boolean }>> {
    this.#stopping = false;
    const generation = ++this.#generation;
    const o = this.#o;
    const dirs = opencodeDirs(o.home);
    await writeOpencodeHome(dirs, { mcpUrl: o.mcp.url, model: o.model, provider: o.provider });
    const port = await freePort();
    const password = randomBytes(24).toString('base64url');
    const env = { ...runtimeBaseEnv(), ...o.env, ...opencodeIsolationEnv(dirs, password, o.mcp.token) };
    const proc = RuntimeProcess.spawn({
      command: o.command,
      args: ['serve', '--port', String(port), '--hostname', '127.0.0.1', '--pure', ...o.args],
      env,
      cwd: o.cwd,
    });
    this.#proc = proc;
    proc.stdout.resume(); // stdout carries only the "listening" banner; never a message.
    const client = new OpencodeClient(port, password);
    this.#client = client;
    void proc.exited.then((exit) => this.#onExit(generation, exit.code, exit.signal));

    const deadline = Date.now() + (o.readyTimeoutMs ?? 45_000);
    const opened = await this.#open(client, generation, deadline);
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
      const cause = proc.spawnError
        ? `could not start "${o.command}": ${proc.spawnError.message}; check the agent's command in agentteam.json`
        : opened.message;
      return fail(
        proc.spawnError ? 'spawn_failed' : opened.code,
        `${cause}${stderr ? ` (opencode stderr: ${stderr})` : ''}`,
      );
    }
    this.#sessionId = opened.value.sessionId;
    this.#events.next({ type: 'ready', generation, sessionId: opened.value.sessionId, resumed: opened.value.resumed });
    return ok({ generation, ...opened.value });
  }

  async #open(
    client: OpencodeClient,
    generation: number,
    deadline: number,
  ): Promise<RuntimeResult<{ sessionId: string; resumed: boolean }>> {
    const o = this.#o;
    const proc = this.#proc as RuntimeProcess;
    // Readiness: the HTTP server answers (polled: OpenCode has no readiness signal on stdio we can rely on).
    let up = false;
    for (let wait = 50; Date.now() < deadline && proc.exit === null; wait = Math.min(wait * 2, 500)) {
      const res = await client.call('GET', '/config', undefined, 2000);
      if (res.ok) {
        up = true;
        break;
      }
      if (res.status === 401) return fail('protocol_error', 'opencode serve refused the daemon password (401)');
      await pause(wait);
    }
    if (!up)
      return fail(
        'not_ready',
        proc.exit !== null ? 'opencode serve exited during startup' : 'opencode serve did not answer in time',
      );
    const stream = await client.events((e) => this.#onEvent(generation, e));
    if (!stream.ok) return fail('not_ready', `opencode event stream failed: ${stream.message}`);
    this.#stream = stream.body;

    const session = await this.#session(client);
    if (!session.ok) return session;
    // The agentteam MCP server must be connected before the first delivery names its tool.
    for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
      const mcp = await client.call<Record<string, { status?: string; error?: string }>>('GET', '/mcp');
      const status = mcp.ok ? mcp.body?.agentteam?.status : undefined;
      if (status === 'connected') break;
      if (status === 'failed' || status === 'needs_auth' || Date.now() >= deadline || proc.exit !== null) {
        const why = mcp.ok
          ? `${status ?? 'missing'}${mcp.body?.agentteam?.error ? `: ${mcp.body.agentteam.error}` : ''}`
          : mcp.message;
        return fail('not_ready', `OpenCode could not connect the agentteam MCP server (${boundedDetail(why, 160)})`);
      }
      await pause(wait);
    }
    o.log?.info('opencode: ready', { agentId: o.agentId, resumed: session.value.resumed });
    return session;
  }

  async #session(client: OpencodeClient): Promise<RuntimeResult<{ sessionId: string; resumed: boolean }>> {
    const o = this.#o;
    const stored = await this.#readSession();
    if (stored !== null && stored.fingerprint === o.threadContract.fingerprint) {
      const existing = await client.call('GET', `/session/${encodeURIComponent(stored.sessionId)}`);
      if (existing.ok) return ok({ sessionId: stored.sessionId, resumed: true });
      o.log?.warn('opencode: stored session unavailable; opening a new one', {
        agentId: o.agentId,
        status: existing.status,
      });
    }
    const created = await client.call<{ id?: string }>('POST', '/session', { title: `AgentTeam · ${o.agentId}` });
    if (!created.ok)
      return fail('session_failed', `opencode could not open a session: ${boundedDetail(created.message)}`);
    const id = str(created.body?.id);
    if (id === null) return fail('protocol_error', 'opencode POST /session answered without an id');
    await writeFile(
      join(o.home, SESSION_FILE),
      JSON.stringify({ sessionId: id, fingerprint: o.threadContract.fingerprint } satisfies StoredSession),
      { mode: 0o600 },
    );
    return ok({ sessionId: id, resumed: false });
  }

  async #readSession(): Promise<StoredSession | null> {
    try {
      const raw = JSON.parse(await readFile(join(this.#o.home, SESSION_FILE), 'utf8')) as Partial<StoredSession>;
      return typeof raw.sessionId === 'string' && typeof raw.fingerprint === 'string'
        ? { sessionId: raw.sessionId, fingerprint: raw.fingerprint }
        : null;
    } catch {
      return null;
    }
  }

  submit(prompt: RuntimePrompt): Promise<RuntimeResult<SubmitReceipt>> {
    if (this.#client === null || this.#sessionId === null || this.#proc?.exit != null)
      return Promise.resolve(fail('not_running', 'the OpenCode runtime is not running'));
    return this.#queue.submit(prompt);
  }

  async #startTurn(prompt: RuntimePrompt): Promise<RuntimeResult<SubmitReceipt>> {
    const client = this.#client;
    const sessionId = this.#sessionId;
    if (client === null || sessionId === null) return fail('not_running', 'the OpenCode runtime is not running');
    const generation = this.#generation;
    this.#turnError = null;
    const res = await client.call('POST', `/session/${encodeURIComponent(sessionId)}/prompt_async`, {
      parts: [{ type: 'text', text: prompt.text }],
    });
    if (!res.ok) return fail('submit_failed', `opencode prompt_async failed: ${boundedDetail(res.message)}`);
    return ok({ generation, turnId: null });
  }

  #beginTurn(generation: number): string {
    if (this.#turnId !== null) return this.#turnId;
    this.#turnSeq += 1;
    const turnId = `opencode-turn-${generation}-${this.#turnSeq}`;
    this.#turnId = turnId;
    this.#events.next({ type: 'turn.start', generation, turnId, at: Date.now() });
    return turnId;
  }

  #endTurn(generation: number): void {
    // Only a turn that `busy` started can end: an idle right after session creation, or the
    // duplicate `session.idle` that follows `session.status idle`, is not a turn end (it
    // would otherwise end the final-check turn that was just submitted).
    const turnId = this.#turnId;
    if (turnId === null) return;
    const err = this.#turnError;
    const outcome = err === null ? 'completed' : err.aborted ? 'interrupted' : 'failed';
    this.#turnId = null;
    this.#turnError = null;
    this.#abortRequested = false;
    this.#toolStates.clear();
    this.#events.next({
      type: 'turn.end',
      generation,
      turnId,
      outcome,
      error: err === null ? null : boundedDetail(err.message),
      at: Date.now(),
    });
    this.#queue.turnEnded();
  }

  #onEvent(generation: number, e: OpencodeEvent): void {
    if (generation !== this.#generation) return;
    const p = e.properties;
    const sessionId = str(p.sessionID) ?? str(get(p, 'info', 'sessionID')) ?? str(get(p, 'part', 'sessionID'));
    if (sessionId !== null && sessionId !== this.#sessionId) return;
    switch (e.type) {
      case 'session.status': {
        const type = str(get(p, 'status', 'type'));
        if (type === 'busy') {
          this.#beginTurn(generation);
          // An interrupt that came before the loop started would have been a no-op: repeat it now.
          if (this.#abortRequested) void this.#abort();
        } else if (type === 'idle') this.#endTurn(generation);
        return;
      }
      case 'session.idle':
        // Deprecated duplicate of `session.status idle` (both are sent): ignored.
        return;
      case 'session.error': {
        const name = str(get(p, 'error', 'name')) ?? 'error';
        const message = str(get(p, 'error', 'data', 'message')) ?? name;
        this.#turnError = { message, aborted: name === 'MessageAbortedError' };
        return;
      }
      case 'message.updated': {
        if (get(p, 'info', 'role') === 'assistant') {
          const id = str(get(p, 'info', 'id'));
          if (id !== null) this.#assistantMessages.add(id);
        }
        return;
      }
      case 'message.part.updated': {
        const part = get(p, 'part');
        // Our own prompt's part arrives before `busy`: only `busy` starts the turn (watchdog turn.start).
        const turnId = this.#turnId;
        if (turnId === null) return;
        const type = str(get(part, 'type'));
        if (type === 'tool') {
          const partId = str(get(part, 'id')) ?? '';
          const state = str(get(part, 'state', 'status'));
          const tool = str(get(part, 'tool')) ?? '?';
          const mapped =
            state === 'running' || state === 'pending'
              ? 'started'
              : state === 'completed'
                ? 'completed'
                : state === 'error'
                  ? 'failed'
                  : null;
          if (mapped === null || this.#toolStates.get(partId) === mapped) return;
          this.#toolStates.set(partId, mapped);
          this.#events.next({ type: 'tool', generation, turnId, tool, status: mapped });
        } else if (type === 'text' && get(part, 'time', 'end') !== undefined) {
          // Only the assistant's finished text parts: our own prompt is a user text part.
          const messageId = str(get(part, 'messageID'));
          const text = str(get(part, 'text'));
          if (messageId !== null && this.#assistantMessages.has(messageId) && text !== null && text !== '')
            this.#events.next({ type: 'local_text', generation, turnId, text });
        }
        return;
      }
      default:
        return;
    }
  }

  #onExit(generation: number, code: number | null, signal: string | null): void {
    if (generation !== this.#generation) return;
    this.#stream?.close();
    this.#stream = null;
    this.#queue.clear(fail('process_exited', 'the OpenCode runtime exited'));
    this.#client = null;
    this.#sessionId = null;
    this.#turnId = null;
    this.#events.next({ type: 'exit', generation, code, signal, expected: this.#stopping });
  }

  async interrupt(): Promise<RuntimeResult<void>> {
    const client = this.#client;
    const sessionId = this.#sessionId;
    this.#queue.dropWaiting(fail('interrupt_failed', 'the prompt was dropped by an interrupt'));
    if (client === null || sessionId === null) return fail('not_running', 'the OpenCode runtime is not running');
    // Nothing accepted and nothing running: nothing to cancel.
    if (this.#turnId === null && !this.#queue.busy) return ok(undefined);
    this.#abortRequested = true;
    this.#turnError = { message: 'interrupted by AgentTeam', aborted: true };
    return this.#abort();
  }

  async #abort(): Promise<RuntimeResult<void>> {
    const client = this.#client;
    const sessionId = this.#sessionId;
    if (client === null || sessionId === null) return fail('not_running', 'the OpenCode runtime is not running');
    const res = await client.call('POST', `/session/${encodeURIComponent(sessionId)}/abort`);
    return res.ok ? ok(undefined) : fail('interrupt_failed', `opencode abort failed: ${boundedDetail(res.message)}`);
  }

  async #kill(): Promise<void> {
    this.#stopping = true;
    this.#stream?.close();
    await this.#proc?.stop();
  }

  async stop(): Promise<void> {
    await this.#kill();
  }

  processGroupAlive(): boolean {
    return this.#proc?.groupAlive() ?? false;
  }

  dispose(): void {
    this.#events.complete();
  }
}
