/**
 * The OpenCode wire: `opencode serve` (HTTP + SSE; research/runtimes.md §3). The daemon picks a
 * free 127.0.0.1 port (OpenCode ignores `--port 0`), protects the server with a fresh
 * `OPENCODE_SERVER_PASSWORD` per process, opens (or reuses the stored) session, and sends one
 * `prompt_async` per delivery and per final-check (final-check `next_turn`). `GET /event`
 * drives the turn: `session.status` busy → turn start, idle → turn end; tool parts → tool
 * calls; `session.error` → the turn fails (aborts: interrupted). OpenCode sends a turn's
 * `session.error` right after its `idle`, so the turn ends one macrotask after `idle`.
 *
 * OpenCode 1.18.33 wedges a session when an abort lands before the model answered: from then on
 * every prompt of that process ends at once with `UnknownError: All fibers interrupted without
 * error` (observed for > 30 s; a restarted process resuming the same session is healthy). That
 * error outside an abort is reported as `process_unusable`: the skeleton replaces the process as
 * after a crash, so the wake is recovered instead of ending as if the agent had stayed silent.
 */
import { openCodeMessageUsage } from '../usage-report.js';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { OPENCODE_WORDS } from './opencode-auth.js';
import { freePort } from '../free-port.js';
import { boundedDetail } from '../runtime-adapter.js';
import type { DriverContext, DriverSession, WireResult } from '../driver-session.js';
import type { AgentLaunchOptions, ConnectResult, RuntimeDriver } from '../runtime-driver.js';
import { runtimeBaseEnv } from '../runtime-env.js';
import {
  OpencodeClient,
  type EventStream,
  type OpencodeEvent,
  type OpencodeMcpStatus,
  type OpencodePromptBody,
  type OpencodeSessionInfo,
} from './opencode-client.js';
import { isOpencodeEvent, type OpencodeBusEventOf, type OpencodePermissionAsked } from './opencode-events.js';
import type { AgentProvider } from '../agent-provider.js';
import { opencodeDirs, opencodeIsolationEnv, writeOpencodeHome, writeToolShell } from './opencode-config.js';
import { markSubmitWritten } from '../submit-timing.js';
import type { PermissionPolicy } from '../../../../shared/config.js';
import { opencodeApprovalAsk, opencodePermissionConfig, opencodeReply } from './opencode-permissions.js';

/** `args` go after `serve --port N --hostname 127.0.0.1 --pure`. */
export interface OpencodeDriverOptions extends AgentLaunchOptions {
  /** The `opencode` executable. */
  readonly command: string;
  readonly mcp: { readonly url: string; readonly token: string };
  /** Per-agent runtime home: HOME and the XDG dirs live under it. */
  readonly home: string;
  readonly provider: AgentProvider | null;
  readonly readyTimeoutMs?: number;
  /** issue 15: links the person's credentials into this XDG data dir, or removes them (opencode-auth.ts). */
  readonly signIn?: (dataDir: string) => void;
  /** issue 14: the agent's permission policy (opencode-permissions.ts); default `read-only`. */
  readonly permissions?: PermissionPolicy;
  /** issue 29: folders its tools are denied under every policy (`external_directory`: the data dir). */
  readonly deniedDirs?: readonly string[];
}

/** The shell OpenCode would pick on its own: bash where there is one, else sh. */
function realBash(): string {
  return ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p)) ?? '/bin/sh';
}

/** issue 38: how long a summarize may run (one model request for the summary). */
const COMPACT_TIMEOUT_MS = 120_000;
/** issue 38: how long, after summarize answered, its outcome event may take to arrive on the event stream. */
const COMPACT_EVENT_POLLS = 40;
const COMPACT_EVENT_POLL_MS = 50;

/** issue 38: a running summarize, as its events tell it. */
interface Compacting {
  compacted: boolean;
  error: string | null;
  /** Its `session.error` came: the summarize failed, whether or not its request answers. */
  readonly failed: () => void;
}

/** A port taken between our probe and OpenCode's bind shows as a failed readiness: try another. */
const PORT_ATTEMPTS = 3;

export class OpencodeDriver implements RuntimeDriver {
  readonly runtime = 'opencode' as const;
  readonly label = OPENCODE_WORDS.label;
  readonly finalCheck = 'next_turn' as const;
  readonly resumeAt = 'open' as const;
  readonly startAttempts = PORT_ATTEMPTS;
  readonly startTimeoutMs: number;
  readonly #o: OpencodeDriverOptions;
  /** The server of the process launched last: the skeleton connects to each process right after launching it. */
  #server = { port: 0, password: '' };

  constructor(options: OpencodeDriverOptions) {
    this.#o = options;
    this.startTimeoutMs = options.readyTimeoutMs ?? 45_000;
  }

  async launch() {
    const o = this.#o;
    const dirs = opencodeDirs(o.home);
    await writeOpencodeHome(dirs, {
      mcpUrl: o.mcp.url,
      model: o.model,
      provider: o.provider,
      permission: opencodePermissionConfig(o.permissions ?? 'read-only', o.deniedDirs ?? []),
    });
    o.signIn?.(dirs.data);
    // issue 29: the tools' commands run without the server password (opencode-config.ts writeToolShell).
    const toolShell = process.platform === 'win32' ? null : await writeToolShell(dirs, realBash());
    this.#server = { port: await freePort(), password: randomBytes(24).toString('base64url') };
    const { port, password } = this.#server;
    return {
      command: o.command,
      args: ['serve', '--port', String(port), '--hostname', '127.0.0.1', '--pure', ...o.args],
      env: {
        ...runtimeBaseEnv(),
        ...o.env,
        ...opencodeIsolationEnv(dirs, password, o.mcp.token),
        ...(toolShell === null ? {} : { SHELL: toolShell }),
      },
      cwd: o.cwd,
    };
  }

  connect(ctx: DriverContext): Promise<ConnectResult> {
    const client = new OpencodeClient(this.#server.port, this.#server.password);
    return new OpencodeSession(ctx, this.#o, client, this.startTimeoutMs).open();
  }

  timeoutMessage(): string {
    return 'opencode serve did not answer in time';
  }
}

/** The serve session of one process. */
class OpencodeSession implements DriverSession {
  readonly #ctx: DriverContext;
  readonly #o: OpencodeDriverOptions;
  readonly #client: OpencodeClient;
  readonly #deadline: number;
  #stream: EventStream | null = null;
  #sessionId: string | null = null;
  #inTurn = false;
  #turnError: { message: string; aborted: boolean } | null = null;
  #abortRequested = false;
  /** The session stopped taking prompts (above): no turn of this process ends normally any more. */
  #wedged = false;
  /** Counts `session.status` changes: an `idle` ends the turn only if no `busy` followed it. */
  #statusChanges = 0;
  readonly #assistantMessages = new Set<string>();
  /** issue 27: assistant messages whose final usage was reported (message.updated repeats). */
  readonly #usageReported = new Set<string>();
  readonly #toolStates = new Map<string, string>();
  /** issue 38: the model the session last answered with (summarize names it). */
  #model: { readonly providerID: string; readonly modelID: string } | null = null;
  /** issue 38: a summarize runs (what its events said): its busy / idle and error are the compaction's, no host turn's. */
  #compacting: Compacting | null = null;

  constructor(ctx: DriverContext, options: OpencodeDriverOptions, client: OpencodeClient, timeoutMs: number) {
    this.#ctx = ctx;
    this.#o = options;
    this.#client = client;
    this.#deadline = ctx.scheduler.now() + timeoutMs;
  }

  async open(): Promise<ConnectResult> {
    const opened = await this.#open();
    if (!opened.ok) this.close();
    return opened;
  }

  async #open(): Promise<ConnectResult> {
    const { ctx, o, client } = { ctx: this.#ctx, o: this.#o, client: this.#client };
    const proc = ctx.process;
    proc.stdout.resume(); // stdout carries only the "listening" banner; never a message.
    // Readiness: the HTTP server answers (polled: OpenCode has no readiness signal on stdio we can rely on).
    let up = false;
    for (let wait = 50; this.#timeLeft() && proc.exit === null; wait = Math.min(wait * 2, 500)) {
      const res = await client.call('GET', '/config', undefined, 2000);
      if (res.ok) {
        up = true;
        break;
      }
      if (res.status === 401) return { ok: false, message: 'opencode serve refused the daemon password (401)' };
      await ctx.delay(wait);
    }
    if (!up)
      return {
        ok: false,
        message: proc.exit !== null ? 'opencode serve exited during startup' : 'opencode serve did not answer in time',
      };
    const stream = await client.events(
      (e) => this.#onEvent(e),
      (bad) => {
        // issue 29: an over-long line is reported on the wake; other bad frames stay diagnostics.
        if (bad.dropped !== undefined) this.#ctx.emit({ type: 'input_dropped', ...bad.dropped });
        else if (this.#ctx.log?.debugEnabled === true)
          this.#ctx.log.debug('opencode: undecodable event frame ignored', { kind: bad.kind, reason: bad.reason });
      },
    );
    if (!stream.ok) return { ok: false, message: `opencode event stream failed: ${stream.message}` };
    this.#stream = stream.body;

    const session = await this.#session();
    if (!session.ok) return session;
    // The agentteam MCP server must be connected before the first delivery names its tool.
    for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
      const mcp = await client.call<Partial<Record<string, OpencodeMcpStatus>> | null>('GET', '/mcp');
      const agentteam = mcp.ok ? mcp.body?.agentteam : undefined;
      const status = agentteam?.status;
      if (status === 'connected') break;
      if (status === 'failed' || status === 'needs_auth' || !this.#timeLeft() || proc.exit !== null) {
        const error = agentteam !== undefined && 'error' in agentteam ? agentteam.error : '';
        const why = mcp.ok ? `${status ?? 'missing'}${error ? `: ${error}` : ''}` : mcp.message;
        return {
          ok: false,
          message: `OpenCode could not connect the agentteam MCP server (${boundedDetail(why, 160)})`,
        };
      }
      await ctx.delay(wait);
    }
    ctx.log?.info('opencode: ready', { agentId: o.agentId, resumed: session.resumed });
    return session;
  }

  #timeLeft(): boolean {
    return this.#ctx.scheduler.now() < this.#deadline;
  }

  async #session(): Promise<ConnectResult> {
    const { ctx, o, client } = { ctx: this.#ctx, o: this.#o, client: this.#client };
    const stored = ctx.resumeSessionId;
    if (stored !== null) {
      const existing = await client.call('GET', `/session/${encodeURIComponent(stored)}`);
      if (existing.ok) return this.#opened(stored, true);
      ctx.log?.warn('opencode: stored session unavailable; opening a new one', {
        agentId: o.agentId,
        status: existing.status,
      });
    }
    const created = await client.call<OpencodeSessionInfo | null>('POST', '/session', {
      title: `AgentTeam · ${o.agentId}`,
    });
    if (!created.ok)
      return { ok: false, message: `opencode could not open a session: ${boundedDetail(created.message)}` };
    const id = created.body?.id;
    if (typeof id !== 'string') return { ok: false, message: 'opencode POST /session answered without an id' };
    return this.#opened(id, false);
  }

  #opened(sessionId: string, resumed: boolean): ConnectResult {
    this.#sessionId = sessionId;
    return { ok: true, session: this, sessionId, resumed };
  }

  async submit(text: string): Promise<WireResult> {
    const sessionId = this.#sessionId;
    if (sessionId === null || this.#ctx.process.exit !== null)
      return { ok: false, message: 'the OpenCode runtime is not running' };
    this.#turnError = null;
    const body: OpencodePromptBody = { parts: [{ type: 'text', text }] };
    const sent = this.#client.call('POST', `/session/${encodeURIComponent(sessionId)}/prompt_async`, body);
    markSubmitWritten('opencode'); // issue 19: handed to node:http; the 204 is OpenCode's time
    const res = await sent;
    return res.ok
      ? { ok: true }
      : { ok: false, message: `opencode prompt_async failed: ${boundedDetail(res.message)}` };
  }

  async interrupt(): Promise<WireResult> {
    // Repeated at `busy` when the loop had not started yet (an abort before it is a no-op).
    this.#abortRequested = true;
    this.#turnError = { message: 'interrupted by AgentTeam', aborted: true };
    return this.#abort();
  }

  /**
   * issue 38: OpenCode's own summarize (`POST /session/:id/summarize`, `auto: false`: no
   * continuation of its own) with the model the session last answered with; it answers once the
   * compaction ran. Its busy / idle is the compaction's, never a host turn.
   */
  async compact(): Promise<WireResult> {
    const sessionId = this.#sessionId;
    const model = this.#model;
    if (sessionId === null || this.#ctx.process.exit !== null)
      return { ok: false, message: 'the OpenCode runtime is not running' };
    if (model === null) return { ok: false, message: 'OpenCode has not named the session model yet' };
    let failed: () => void = () => undefined;
    const failure = new Promise<null>((resolve) => (failed = () => resolve(null)));
    const compaction: Compacting = { compacted: false, error: null, failed };
    this.#compacting = compaction;
    try {
      const call = this.#client.call<unknown>(
        'POST',
        `/session/${encodeURIComponent(sessionId)}/summarize`,
        { ...model, auto: false },
        COMPACT_TIMEOUT_MS,
      );
      // A summarize whose model request failed may never answer (OpenCode 1.18.33): its `session.error` ends the wait.
      const res = await Promise.race([call, failure]);
      if (res === null) return { ok: false, message: compaction.error ?? 'opencode summarize failed' };
      if (!res.ok || res.body === false)
        return { ok: false, message: `opencode summarize failed: ${boundedDetail(res.ok ? 'refused' : res.message)}` };
      // summarize answers true even when its model request failed: its `session.compacted` (or the
      // `session.error` that ended it) says, and the event stream may deliver it just after the answer.
      for (let i = 0; i < COMPACT_EVENT_POLLS && !compaction.compacted && compaction.error === null; i += 1)
        await this.#ctx.delay(COMPACT_EVENT_POLL_MS);
      if (compaction.error !== null) return { ok: false, message: compaction.error };
      return compaction.compacted
        ? { ok: true }
        : { ok: false, message: 'opencode summarize answered, but the session reported no compaction' };
    } finally {
      this.#compacting = null;
      this.#inTurn = false;
      this.#turnError = null;
    }
  }

  close(): void {
    this.#stream?.close();
    this.#stream = null;
  }

  async #abort(): Promise<WireResult> {
    const sessionId = this.#sessionId;
    if (sessionId === null) return { ok: false, message: 'the OpenCode runtime is not running' };
    const res = await this.#client.call('POST', `/session/${encodeURIComponent(sessionId)}/abort`);
    return res.ok ? { ok: true } : { ok: false, message: `opencode abort failed: ${boundedDetail(res.message)}` };
  }

  #endTurn(): void {
    // Only a turn that `busy` started can end: an idle right after session creation, or the
    // duplicate `session.idle` that follows `session.status idle`, is not a turn end (it
    // would otherwise end the final-check turn that was just submitted).
    if (!this.#inTurn || this.#wedged) return;
    const err = this.#turnError;
    this.#inTurn = false;
    this.#turnError = null;
    this.#abortRequested = false;
    this.#toolStates.clear();
    this.#ctx.emit({
      type: 'turn_ended',
      outcome: err === null ? 'completed' : err.aborted ? 'interrupted' : 'failed',
      error: err?.message ?? null,
    });
  }

  /** Known `/event` members narrowed to their typed properties (opencode-events.ts); the rest are ignored. */
  #onEvent(e: OpencodeEvent): void {
    if (isOpencodeEvent(e, 'session.status')) {
      if (this.#ours(e.properties.sessionID)) this.#onStatus(e.properties.status.type);
    } else if (isOpencodeEvent(e, 'session.error')) {
      if (!this.#ours(e.properties.sessionID)) return;
      const err = e.properties.error;
      const name = err?.name ?? 'error';
      const text =
        (err !== undefined && err.name !== 'MessageOutputLengthError' ? err.data.message : undefined) ?? name;
      // issue 15: the error's kind and HTTP status let the skeleton name the failure reason.
      const status = err !== undefined && 'statusCode' in err.data ? err.data.statusCode : undefined;
      const message = `${name}${typeof status === 'number' ? ` HTTP ${status}` : ''}: ${text}`;
      if (this.#compacting !== null) {
        this.#compacting.error = boundedDetail(`OpenCode could not compact the session: ${message}`);
        return this.#compacting.failed();
      }
      if (isWedged(name, text) && !this.#abortRequested) return this.#onWedged();
      this.#turnError = { message, aborted: name === 'MessageAbortedError' || this.#abortRequested };
      // issue 16 (§6.6): the provider refused the context as too long.
      if (name === 'ContextOverflowError') this.#ctx.emit({ type: 'context_overflow' });
    } else if (isOpencodeEvent(e, 'session.compacted')) {
      // issue 24: OpenCode compacted the session (its own auto-compaction or `summarize`) and goes on.
      if (!this.#ours(e.properties.sessionID)) return;
      if (this.#compacting !== null) this.#compacting.compacted = true;
      this.#ctx.emit({ type: 'context_compacted' });
    } else if (isOpencodeEvent(e, 'message.updated')) {
      const { info } = e.properties;
      if (this.#ours(e.properties.sessionID) && info.role === 'assistant') {
        this.#assistantMessages.add(info.id);
        if (info.providerID !== undefined && info.modelID !== undefined)
          this.#model = { providerID: info.providerID, modelID: info.modelID };
        // issue 27: the message's tokens and cost, once, when OpenCode marks it completed.
        if (info.time.completed !== undefined && !this.#usageReported.has(info.id)) {
          const usage = openCodeMessageUsage(info);
          if (usage !== null) {
            this.#usageReported.add(info.id);
            this.#ctx.emit({ type: 'usage', usage });
          }
        }
      }
    } else if (isOpencodeEvent(e, 'message.part.updated')) {
      // Our own prompt's part arrives before `busy`: only `busy` starts the turn (watchdog turn.start).
      if (this.#ours(e.properties.sessionID) && this.#inTurn) this.#onPart(e.properties.part);
    } else if (isOpencodeEvent(e, 'permission.asked')) {
      // issue 14: the operator answers (opencode-permissions.ts); the reply endpoint resumes the tool.
      if (this.#ours(e.properties.sessionID)) this.#onPermissionAsked(e.properties);
    }
    // `session.idle` is a deprecated duplicate of `session.status idle` (both are sent): ignored.
  }

  #onPermissionAsked(asked: OpencodePermissionAsked): void {
    void this.#ctx
      .askApproval(opencodeApprovalAsk(asked))
      .then((a) => this.#client.call('POST', `/permission/${encodeURIComponent(asked.id)}/reply`, opencodeReply(a)))
      .then((res) => {
        if (!res.ok) this.#ctx.log?.warn('opencode: permission reply failed', { message: res.message });
      });
  }

  /** An event of another session is not ours; one that names no session is. */
  #ours(sessionId: string | undefined): boolean {
    return sessionId === undefined || sessionId === this.#sessionId;
  }

  #onStatus(type: OpencodeBusEventOf<'session.status'>['properties']['status']['type']): void {
    const change = ++this.#statusChanges;
    if (this.#compacting !== null) return;
    if (type === 'busy') {
      if (!this.#inTurn) {
        this.#inTurn = true;
        this.#ctx.emit({ type: 'turn_started' });
      }
      // An interrupt that came before the loop started would have been a no-op: repeat it now.
      if (this.#abortRequested) void this.#abort();
    } else if (type === 'idle') {
      // The turn's own `session.error` follows its `idle`: let this read's events land first.
      void this.#ctx.delay(0).then(() => {
        if (change === this.#statusChanges) this.#endTurn();
      });
    }
  }

  #onWedged(): void {
    if (this.#wedged) return;
    this.#wedged = true;
    this.#ctx.emit({
      type: 'process_unusable',
      detail:
        'OpenCode stopped taking prompts in this session after an early abort ("All fibers interrupted without error"); its process was restarted',
    });
  }

  #onPart(part: OpencodeBusEventOf<'message.part.updated'>['properties']['part']): void {
    if (part.type === 'tool') {
      const state = part.state.status;
      const mapped =
        state === 'running' || state === 'pending'
          ? 'started'
          : state === 'completed'
            ? 'completed'
            : state === 'error'
              ? 'failed'
              : null;
      if (mapped === null || this.#toolStates.get(part.id) === mapped) return;
      this.#toolStates.set(part.id, mapped);
      if (mapped === 'started') this.#ctx.emit({ type: 'tool_call', name: part.tool });
    } else if (part.type === 'text' && part.time?.end !== undefined) {
      // Only the assistant's finished text parts: our own prompt is a user text part.
      if (this.#assistantMessages.has(part.messageID)) this.#ctx.emit({ type: 'local_text', text: part.text });
    }
  }
}

/** OpenCode 1.18.33's wedged session (see the top of this file). */
function isWedged(name: string, text: string): boolean {
  return name === 'UnknownError' && text.includes('All fibers interrupted without error');
}
