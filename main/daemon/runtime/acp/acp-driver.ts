/**
 * issue 28: any ACP agent (Agent Client Protocol v1, JSON-RPC on stdio) as a runtime, on
 * `@agentclientprotocol/sdk` (no framer of ours): `initialize`, then `session/resume` of the
 * stored session where the agent offers it, else `session/load`, else `session/new` — always
 * with our MCP server and the agent's bearer token — then one `session/prompt` per delivery and
 * per final-check (final-check `next_turn`). The guards ACP lacks (research/acp.md §8):
 * - before the first prompt our MCP server must have answered this token's `tools/list`
 *   (every CLI goes on silently without the tool when the MCP connection fails);
 * - interrupt is `session/cancel`, then a kill of the process group after a grace period;
 * - each CLI's structured error (HTTP status as the JSON-RPC code, -32603 with `data.details`,
 *   Copilot's `session.error` event in its session event log) becomes one closed failure
 *   reason; agent text never does (contract §6.5, §9.3), whatever it says;
 * - permission requests go to the operator; an "always" is kept by the daemon, the agent is
 *   only ever told "once" (Qwen's `proceed_always_project` would write into the repository).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { FailureReason } from '../../../../shared/wake-status.js';
import type { AcpPreset, PermissionPolicy } from '../../../../shared/config.js';
import { MCP_SERVER_NAME } from '../../mcp/mcp-names.js';
import type { McpEndpoint } from '../../mcp/mcp-server.js';
import type { ApprovalAnswer, ApprovalAsk } from '../approval-port.js';
import type { DriverContext, DriverSession, WireResult } from '../driver-session.js';
import { boundedDetail } from '../runtime-adapter.js';
import type { AgentLaunchOptions, ConnectResult, LaunchSpec, RuntimeDriver } from '../runtime-driver.js';
import { runtimeBaseEnv } from '../runtime-env.js';
import { markSubmitWritten } from '../submit-timing.js';
import { acpPromptUsage } from '../usage-report.js';
import { ACP_PRESET_SPECS, CUSTOM_ACP, acpWords, type AcpPresetSpec } from './acp-presets.js';

export interface AcpDriverOptions extends AgentLaunchOptions {
  readonly preset: AcpPreset | null;
  /** A custom agent's command (`args` follow it); with a preset, replaces the preset's entry. */
  readonly command: string | null;
  readonly home: string;
  readonly sharedCache: string;
  readonly projectRoot: string;
  readonly mcp: Pick<McpEndpoint, 'url' | 'token' | 'toolsListed'>;
  readonly permissions: PermissionPolicy;
  readonly readyTimeoutMs?: number;
  /** How long the agent may take to list our tools after its session opened. */
  readonly mcpTimeoutMs?: number;
  /** After `session/cancel`, how long the turn may take to end before the process group is killed. */
  readonly cancelGraceMs?: number;
  /** issue 15: links the person's login file into the agent's home, or removes it. */
  readonly signIn?: (home: string) => void;
}

const CLIENT_INFO = { name: 'agentteam', title: 'AgentTeam Desktop', version: '0.1.0' };

export class AcpDriver implements RuntimeDriver {
  readonly runtime = 'acp' as const;
  readonly label: string;
  readonly finalCheck = 'next_turn' as const;
  readonly resumeAt = 'open' as const;
  readonly startTimeoutMs: number;
  readonly stdinGraceMs = 2000;
  readonly #o: AcpDriverOptions;
  readonly #spec: AcpPresetSpec;

  constructor(options: AcpDriverOptions) {
    this.#o = options;
    this.#spec = options.preset === null ? CUSTOM_ACP : ACP_PRESET_SPECS[options.preset];
    // The operator's name for it (shared/agent-readiness.ts): "Gemini CLI", or "ACP agent" for a custom one.
    this.label = acpWords(options.preset).label;
    // Gemini may wait for the UTC minute to change before it loads a session (acp-presets.ts).
    this.startTimeoutMs = options.readyTimeoutMs ?? 120_000;
  }

  async launch(): Promise<LaunchSpec> {
    const o = this.#o;
    const base = { ...runtimeBaseEnv(), ...o.env };
    o.signIn?.(o.home);
    if (o.preset === null)
      return { command: o.command as string, args: o.args, env: { ...base, HOME: o.home }, cwd: o.cwd };
    const l = await this.#spec.launch({
      home: o.home,
      sharedCache: o.sharedCache,
      projectRoot: o.projectRoot,
      env: o.env,
      model: o.model,
    });
    // A config `command` replaces the preset's executable and entry; its flags, env and home stay.
    const head = o.command === null ? { command: l.command, entry: l.entry } : { command: o.command, entry: [] };
    return {
      command: head.command,
      args: [...head.entry, ...l.args, ...o.args],
      env: { ...base, ...l.env },
      cwd: o.cwd,
    };
  }

  connect(ctx: DriverContext): Promise<ConnectResult> {
    return new AcpSession(ctx, this.#o, this.#spec, this.startTimeoutMs).open();
  }

  timeoutMessage(ms: number): string {
    return `${this.label} did not open an ACP session within ${Math.round(ms / 1000)} s`;
  }
}

/** A JSON-RPC error of the agent, in the closed failure vocabulary (research/acp.md §1 "model errors"). */
export function acpFailure(err: unknown): { readonly message: string; readonly reason: FailureReason } {
  const e = err as { code?: unknown; message?: unknown; data?: unknown };
  const data = e.data as { details?: unknown } | undefined;
  const details = typeof data?.details === 'string' ? data.details : null;
  const message = typeof e.message === 'string' ? e.message : String(err);
  // Gemini: the code is the HTTP status; Qwen: -32603 with "<status> …" in data.details.
  const code = typeof e.code === 'number' && e.code >= 400 && e.code <= 599 ? e.code : null;
  const fromDetails = details === null ? null : /^(\d{3})\b/.exec(details);
  const status = code ?? (fromDetails === null ? null : Number(fromDetails[1]));
  const text = details ?? message;
  if (status === null) return { message: boundedDetail(text), reason: 'runtime_error' };
  return { message: boundedDetail(`HTTP ${status}: ${text}`), reason: reasonOfStatus(status) };
}

function reasonOfStatus(status: number): FailureReason {
  if (status === 401 || status === 403) return 'auth_required';
  if (status === 429) return 'provider_rate_limited';
  return 'provider_error';
}

/** A `session.error` event's `errorType` (Copilot's session-events schema, `ErrorData`) → reason, when no status says it. */
const ERROR_TYPE_REASON: Readonly<Record<string, FailureReason>> = {
  authentication: 'auth_required',
  authorization: 'auth_required',
  rate_limit: 'provider_rate_limited',
  quota: 'provider_rate_limited',
};

/**
 * issue 38: the turn's failure as the CLI recorded it in its session event log — the JSON lines it
 * appended during the turn — or null. Only the root agent's persisted `session.error` events
 * count (`{errorType, statusCode?, message}`, written by the CLI itself: Copilot 1.0.102 writes one
 * before it answers `end_turn` for a model request that failed after its retries). What the model
 * says is an `assistant.message` event there and an `agent_message_chunk` on the wire: never read.
 */
export function acpLogFailure(jsonl: string): { readonly message: string; readonly reason: FailureReason } | null {
  let failure: { message: string; reason: FailureReason } | null = null;
  for (const line of jsonl.split('\n')) {
    if (!line.includes('"session.error"')) continue;
    let event: { type?: unknown; ephemeral?: unknown; agentId?: unknown; data?: unknown };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      continue; // a line still being written
    }
    if (event.type !== 'session.error' || event.ephemeral === true || event.agentId !== undefined) continue;
    const data = (event.data ?? {}) as { errorType?: unknown; statusCode?: unknown; message?: unknown };
    const text = typeof data.message === 'string' ? data.message : 'the agent reported an error';
    const status =
      typeof data.statusCode === 'number' && data.statusCode >= 400 && data.statusCode <= 599 ? data.statusCode : null;
    const byType = typeof data.errorType === 'string' ? ERROR_TYPE_REASON[data.errorType] : undefined;
    failure =
      status !== null
        ? { message: boundedDetail(`HTTP ${status}: ${text}`), reason: reasonOfStatus(status) }
        : { message: boundedDetail(text), reason: byType ?? 'runtime_error' };
  }
  return failure;
}

/** The byte size of a file, 0 when it does not exist (yet). */
function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** What a file gained since `offset` (all of it when it was replaced by a shorter one); '' when unreadable. */
function appendedSince(file: string, offset: number): string {
  try {
    const all = readFileSync(file);
    return all.subarray(all.length >= offset ? offset : 0).toString('utf8');
  } catch {
    return '';
  }
}

/** The operator's question for one `session/request_permission` (approval-port.ts). */
export function acpApprovalAsk(req: acp.RequestPermissionRequest): ApprovalAsk {
  const call = req.toolCall;
  const raw = (call.rawInput ?? {}) as Record<string, unknown>;
  const title = call.title ?? 'tool call';
  const command = typeof raw.command === 'string' ? raw.command : null;
  const path =
    typeof raw.file_path === 'string'
      ? raw.file_path
      : typeof raw.path === 'string'
        ? raw.path
        : (call.locations?.[0]?.path ?? null);
  if (call.kind === 'execute' || command !== null) {
    const line = command ?? title;
    return { kind: 'command', tool: 'Bash', summary: line, detail: line, rule: `Bash(${line})` };
  }
  if (call.kind === 'edit' || call.kind === 'delete' || call.kind === 'move')
    return {
      kind: 'file_change',
      tool: 'Edit',
      summary: path ?? title,
      detail: JSON.stringify(raw, null, 2),
      rule: path === null ? null : `Edit(${path})`,
    };
  return { kind: 'other', tool: title, summary: title, detail: JSON.stringify(raw, null, 2), rule: null };
}

/** The option that says the operator's answer — "once" only: an "always" stays the daemon's rule. */
export function acpPermissionOutcome(
  options: readonly acp.PermissionOption[],
  answer: ApprovalAnswer,
): acp.RequestPermissionResponse {
  const kinds: readonly acp.PermissionOptionKind[] = answer.decision === 'allow' ? ['allow_once'] : ['reject_once'];
  const option = options.find((o) => kinds.includes(o.kind));
  return option === undefined
    ? { outcome: { outcome: 'cancelled' } }
    : { outcome: { outcome: 'selected', optionId: option.optionId } };
}

interface Turn {
  /** Agent text since the last tool call (reported as one local_text). */
  pending: string;
  /** The CLI's error log (acp-presets.ts `errorLog`) and its size when the turn was submitted. */
  readonly errorLog: { readonly file: string; readonly offset: number } | null;
  cancelled: boolean;
  /** Permission requests of the turn still unanswered: a cancel answers each `cancelled` (ACP prompt-turn spec). */
  readonly onCancel: Set<() => void>;
}

/** The ACP session of one process. */
class AcpSession implements DriverSession {
  readonly #ctx: DriverContext;
  readonly #o: AcpDriverOptions;
  readonly #spec: AcpPresetSpec;
  /** The operator's name for the agent (the driver's `label`). */
  readonly #label: string;
  readonly #deadline: number;
  readonly #conn: acp.ClientConnection;
  #sessionId: string | null = null;
  #turn: Turn | null = null;
  /** Tool calls seen in this session (ids), so a permission request and its update report one call. */
  readonly #seenTools = new Set<string>();

  constructor(ctx: DriverContext, options: AcpDriverOptions, spec: AcpPresetSpec, timeoutMs: number) {
    this.#ctx = ctx;
    this.#o = options;
    this.#spec = spec;
    this.#label = acpWords(options.preset).label;
    this.#deadline = ctx.scheduler.now() + timeoutMs;
    const app = acp
      .client({ name: CLIENT_INFO.name })
      .onNotification(acp.methods.client.session.update, (c) => this.#onUpdate(c.params))
      .onRequest(acp.methods.client.session.requestPermission, (c) => this.#onPermission(c.params))
      // Extensions (Qwen's `craft/drainMidTurnQueue`, `qwen/notify/…`) are not ours to answer.
      .onRequest('*', (c) => {
        throw acp.RequestError.methodNotFound(c.method);
      })
      .onNotification('*', () => undefined);
    const proc = ctx.process;
    const stream = acp.ndJsonStream(
      Writable.toWeb(proc.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(proc.stdout) as ReadableStream<Uint8Array>,
    );
    this.#conn = app.connect(stream);
  }

  async open(): Promise<ConnectResult> {
    try {
      return await this.#open();
    } catch (err) {
      return { ok: false, message: `${this.#label}: ${acpFailure(err).message}` };
    }
  }

  async #open(): Promise<ConnectResult> {
    const { ctx, o } = { ctx: this.#ctx, o: this.#o };
    const agent = this.#conn.agent;
    const label = this.#label;
    const init: acp.InitializeResponse = await agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: CLIENT_INFO,
    });
    const caps = init.agentCapabilities ?? {};
    if (caps.mcpCapabilities?.http !== true)
      return {
        ok: false,
        message: `${label} does not accept an HTTP MCP server over ACP (no mcpCapabilities.http), so it cannot reach AgentTeam's message_send. Fix: use an ACP agent that supports HTTP MCP servers.`,
      };
    const listedBefore = o.mcp.toolsListed?.() ?? 0;
    const mcpServers: acp.McpServer[] = [
      {
        type: 'http',
        name: MCP_SERVER_NAME,
        url: o.mcp.url,
        headers: [{ name: 'Authorization', value: `Bearer ${o.mcp.token}` }],
      },
    ];
    let resumed = false;
    let sessionId: string | null = null;
    // The modes the agent advertises for the session (session/new, resume and load all answer them).
    let modes: acp.SessionModeState | null | undefined;
    const stored = ctx.resumeSessionId;
    if (stored !== null) {
      try {
        if (caps.sessionCapabilities?.resume != null) {
          ({ modes } = await agent.request(acp.methods.agent.session.resume, {
            sessionId: stored,
            cwd: o.cwd,
            mcpServers,
          }));
          sessionId = stored;
        } else if (caps.loadSession === true) {
          if (this.#spec.loadsOnlyAfterCreationMinute) await this.#pastCreationMinute(stored);
          ({ modes } = await agent.request(acp.methods.agent.session.load, {
            sessionId: stored,
            cwd: o.cwd,
            mcpServers,
          }));
          sessionId = stored;
        }
        resumed = sessionId !== null;
      } catch (err) {
        ctx.log?.warn('acp: stored session could not be resumed; opening a new one', {
          agentId: o.agentId,
          error: acpFailure(err).message,
        });
      }
    }
    if (sessionId === null) {
      const created = await agent.request(acp.methods.agent.session.new, { cwd: o.cwd, mcpServers });
      sessionId = created.sessionId;
      modes = created.modes;
    }
    this.#sessionId = sessionId;
    const setting = this.#spec.policy(o.permissions);
    // The policy's mode must be one the agent really advertises (issue 28). A response without
    // modes (a load may answer none) leaves it to session/set_mode, whose refusal fails the start.
    const advertised = modes?.availableModes.map((m) => m.id) ?? [];
    if (setting.modeId !== null && modes != null && !advertised.includes(setting.modeId))
      return {
        ok: false,
        message: `${label} does not offer the mode "${setting.modeId}" that the "${o.permissions}" policy needs (it offers: ${advertised.join(', ')}), so the policy cannot be enforced. Fix: use a ${label} version that offers it, or another permissions policy.`,
      };
    if (setting.modeId !== null)
      await agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: setting.modeId });
    if (setting.configOption !== undefined)
      await agent.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: setting.configOption.configId,
        value: setting.configOption.value,
      });
    // The guard: never a session without our tools (research/acp.md §8.1).
    const mcpDeadline = Math.min(this.#deadline, ctx.scheduler.now() + (o.mcpTimeoutMs ?? 20_000));
    if (o.mcp.toolsListed !== undefined)
      for (let wait = 25; (o.mcp.toolsListed() ?? 0) <= listedBefore; wait = Math.min(wait * 2, 250)) {
        if (ctx.scheduler.now() >= mcpDeadline || ctx.process.exit !== null)
          return {
            ok: false,
            message: `${label} opened its session without AgentTeam's tools: the agentteam MCP server saw no authenticated tools/list from it. Fix: check that nothing blocks 127.0.0.1 for this agent and that its settings allow MCP servers (for Gemini CLI, a trusted folder), then Retry.`,
          };
        await ctx.delay(wait);
      }
    ctx.log?.info('acp: ready', {
      agentId: o.agentId,
      agent: init.agentInfo?.name ?? label,
      resumed,
      policy: o.permissions,
      modeId: setting.modeId,
      modes: advertised,
      ...(setting.configOption === undefined ? {} : { configOption: setting.configOption }),
    });
    return { ok: true, session: this, sessionId, resumed };
  }

  /** Gemini destroys a session loaded in the UTC minute it was created in: wait for the next minute. */
  async #pastCreationMinute(sessionId: string): Promise<void> {
    const minute = geminiSessionMinute(join(this.#o.home, '.gemini', 'tmp'), sessionId);
    if (minute === null) return;
    const waitMs = Date.parse(`${minute}:00Z`) + 60_000 - Date.now();
    if (waitMs > 0 && waitMs <= 60_000) await this.#ctx.delay(waitMs + 250);
  }

  async submit(text: string): Promise<WireResult> {
    const sessionId = this.#sessionId;
    if (sessionId === null || this.#ctx.process.exit !== null || this.#conn.signal.aborted)
      return { ok: false, message: `the ${this.#label} runtime is not running` };
    const logFile = this.#spec.errorLog?.(this.#o.home, sessionId) ?? null;
    const errorLog = logFile === null ? null : { file: logFile, offset: sizeOf(logFile) };
    const turn: Turn = { pending: '', errorLog, cancelled: false, onCancel: new Set() };
    this.#turn = turn;
    this.#ctx.emit({ type: 'turn_started' });
    const prompt = this.#conn.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text }],
    });
    markSubmitWritten('acp'); // issue 19: written to stdin; the answer is the agent's time
    void prompt.then(
      (res) => {
        // issue 41: the turn's usage as the agent reported it (budgets count ACP agents too), before its end.
        const usage = this.#turn === turn ? acpPromptUsage(res) : null;
        if (usage !== null) this.#ctx.emit({ type: 'usage', usage });
        this.#ended(turn, res.stopReason, null);
      },
      (err: unknown) => this.#ended(turn, null, err),
    );
    return { ok: true };
  }

  async interrupt(): Promise<WireResult> {
    const sessionId = this.#sessionId;
    const turn = this.#turn;
    if (sessionId === null || turn === null) return { ok: true };
    turn.cancelled = true;
    await this.#conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    // ACP: after session/cancel the client answers every pending permission request `cancelled`;
    // Gemini and Copilot end the turn only then (waiting on the operator, they ran into the kill).
    for (const answer of turn.onCancel) answer();
    turn.onCancel.clear();
    // Gemini finishes a turn whose stdin closed; some agents ignore a cancel mid-retry: kill after a grace.
    void this.#ctx.delay(this.#o.cancelGraceMs ?? 5000).then(() => {
      if (this.#turn !== turn) return;
      this.#ctx.log?.warn('acp: the turn did not end after session/cancel; killing the agent', {
        agentId: this.#o.agentId,
      });
      this.#ended(turn, 'cancelled', null);
      this.#ctx.process.kill('SIGKILL');
    });
    return { ok: true };
  }

  close(): void {
    this.#conn.close();
  }

  #ended(turn: Turn, stopReason: acp.StopReason | null, err: unknown): void {
    if (this.#turn !== turn) return;
    this.#flushText(turn);
    this.#turn = null;
    const emit = this.#ctx.emit;
    if (stopReason === 'cancelled' || (turn.cancelled && stopReason === null))
      return emit({ type: 'turn_ended', outcome: 'interrupted', error: 'interrupted by AgentTeam' });
    if (stopReason === null) {
      const failure = acpFailure(err);
      return emit({ type: 'turn_ended', outcome: 'failed', error: failure.message, reason: failure.reason });
    }
    if (stopReason === 'max_tokens') {
      // Gemini: prompt tokens over the model's limit wedge the session (research/acp.md §2). The ACP
      // session offers no `compact` (issue 38), so the host renews it (§6.6): only Gemini reports an
      // overflow here, and Copilot's `/compact` command is not wired (its overflow is not reported).
      emit({ type: 'context_overflow' });
      return emit({
        type: 'turn_ended',
        outcome: 'failed',
        error: 'the agent stopped: max_tokens (context window exceeded)',
        reason: 'context_overflow',
      });
    }
    if (stopReason === 'refusal')
      return emit({
        type: 'turn_ended',
        outcome: 'failed',
        error: 'the model refused the prompt',
        reason: 'runtime_error',
      });
    // Copilot: a failed model request ends `end_turn` too; its failure is in the CLI's own log.
    const logged =
      turn.errorLog === null ? null : acpLogFailure(appendedSince(turn.errorLog.file, turn.errorLog.offset));
    if (logged !== null)
      return emit({ type: 'turn_ended', outcome: 'failed', error: logged.message, reason: logged.reason });
    emit({ type: 'turn_ended', outcome: 'completed', error: null });
  }

  /** Local text is reported once per stretch (between tool calls), reduced to counts by the skeleton. */
  #flushText(turn: Turn): void {
    const text = turn.pending;
    if (text === '') return;
    turn.pending = '';
    this.#ctx.emit({ type: 'local_text', text });
  }

  #onUpdate(n: acp.SessionNotification): void {
    if (n.sessionId !== this.#sessionId) return;
    const turn = this.#turn;
    // Replayed history (a `session/load` answers with it, some of it after the response) is no turn of ours.
    if (turn === null) return;
    const u = n.update;
    switch (u.sessionUpdate) {
      case 'agent_message_chunk': {
        if (u.content.type !== 'text' || u.content.text === '') return;
        const text = u.content.text;
        if (this.#spec.modeEcho?.test(text) === true) return;
        if (this.#spec.compactionNotice?.test(text) === true) {
          // Qwen compacted its context natively and goes on: a continuation (DESIGN.md "Compaction…").
          this.#ctx.emit({ type: 'context_compacted' });
          return;
        }
        turn.pending += text;
        return;
      }
      case 'tool_call':
        this.#toolCall(u.toolCallId, u.title, u._meta);
        return;
      case 'tool_call_update':
        this.#toolCall(u.toolCallId, u.title ?? null, u._meta);
        return;
      default:
        return;
    }
  }

  #toolCall(id: string, title: string | null | undefined, meta: unknown): void {
    if (this.#seenTools.has(id)) return;
    this.#seenTools.add(id);
    const turn = this.#turn;
    if (turn !== null) this.#flushText(turn);
    const named = (meta as { toolName?: unknown } | null | undefined)?.toolName;
    this.#ctx.emit({ type: 'tool_call', name: typeof named === 'string' ? named : (title ?? 'tool') });
  }

  async #onPermission(req: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> {
    // Gemini sends no `tool_call` before asking: the request is the call's first sight.
    this.#toolCall(req.toolCall.toolCallId, req.toolCall.title, req.toolCall._meta);
    const turn = this.#turn;
    const asked = this.#ctx.askApproval(acpApprovalAsk(req));
    if (turn === null) return acpPermissionOutcome(req.options, await asked);
    let onCancel = (): void => undefined;
    const cancelled = new Promise<null>((resolve) => {
      onCancel = () => resolve(null);
      if (turn.cancelled) resolve(null);
      else turn.onCancel.add(onCancel);
    });
    // The operator's approval stays the daemon's (it settles or expires there); the agent's question ends now.
    const answer = await Promise.race([asked, cancelled]);
    turn.onCancel.delete(onCancel);
    if (answer === null || turn.cancelled) return { outcome: { outcome: 'cancelled' } };
    return acpPermissionOutcome(req.options, answer);
  }
}

/** `session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl` under `<home>/.gemini/tmp/<slug>/chats`: its minute as `YYYY-MM-DDTHH:MM`. */
export function geminiSessionMinute(tmpDir: string, sessionId: string): string | null {
  const id8 = sessionId.slice(0, 8);
  let slugs: string[];
  try {
    slugs = readdirSync(tmpDir);
  } catch {
    return null;
  }
  for (const slug of slugs) {
    let files: string[];
    try {
      files = readdirSync(join(tmpDir, slug, 'chats'));
    } catch {
      continue;
    }
    for (const f of files) {
      const m = /^session-(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-([^.]+)\.jsonl$/.exec(f);
      if (m !== null && m[3] === id8) return `${m[1]}:${m[2]}`;
    }
  }
  return null;
}
