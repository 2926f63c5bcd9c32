/**
 * The Codex wire: `codex app-server` (JSON-RPC on stdio; research/runtimes.md §3):
 * `initialize` + `initialized`, `thread/start` — or `thread/resume` of the stored thread, which
 * the skeleton offers only under the same thread-contract fingerprint (contract §8.1: the
 * contract block is not part of it, so prompt changes never force a fresh thread) — then one
 * `turn/start` per delivery and per final-check on that thread (final-check `next_turn`).
 * Server→client requests are answered deterministically (codex-server-requests.ts).
 */
import { codexRateLimitWindows, codexTokenUsage } from '../usage-report.js';
import { join } from 'node:path';
import { CODEX_WORDS } from './codex-auth.js';
import { boundedDetail } from '../runtime-adapter.js';
import type { DriverContext, DriverSession, WireResult } from '../driver-session.js';
import type { AgentLaunchOptions, ConnectResult, RuntimeDriver } from '../runtime-driver.js';
import { runtimeBaseEnv } from '../runtime-env.js';
import { MCP_TOKEN_ENV } from '../agent-provider.js';
import { CODEX_PROFILE, codexProfileBase, writeCodexHome, type CodexProvider } from './codex-config.js';
import { isItem, type ThreadResumeParams } from './codex-protocol.js';
import { CodexRpcClient, type RpcNotification } from './codex-rpc-client.js';
import { codexFailure } from './codex-failure.js';
import { answerCodexServerRequest } from './codex-server-requests.js';
import { markSubmitWritten } from '../submit-timing.js';
import { CodexApprovals, codexThreadPolicy } from './codex-approvals.js';
import type { PermissionPolicy } from '../../../../shared/config.js';

/** `args` (e.g. `-c key=value` overrides) go after `app-server`. */
export interface CodexDriverOptions extends AgentLaunchOptions {
  /** The `codex` executable. */
  readonly command: string;
  /** Per-agent runtime home: HOME and CODEX_HOME live under it. */
  readonly home: string;
  readonly provider: CodexProvider | null;
  /** The thread contract, as the thread's developer instructions. */
  readonly developerInstructions: string | null;
  readonly mcp: { readonly url: string; readonly token: string };
  readonly readyTimeoutMs?: number;
  /** issue 15: links the person's login into this CODEX_HOME, or removes it (codex-auth.ts). */
  readonly signIn?: (codexHome: string) => void;
  /** issue 14: the agent's permission policy (codex-approvals.ts); default `read-only`. */
  readonly permissions?: PermissionPolicy;
  /** issue 41: paths under the data dir its commands are denied (workspace.ts `shellDeniedPaths`), read at each launch. */
  readonly deniedPaths?: () => readonly string[];
}

const CLIENT_INFO = { name: 'agentteam', title: 'AgentTeam Desktop', version: '0.1.0' };

export class CodexDriver implements RuntimeDriver {
  readonly runtime = 'codex' as const;
  readonly label = CODEX_WORDS.label;
  readonly finalCheck = 'next_turn' as const;
  readonly resumeAt = 'open' as const;
  readonly startTimeoutMs: number;
  readonly #o: CodexDriverOptions;

  constructor(options: CodexDriverOptions) {
    this.#o = options;
    this.startTimeoutMs = options.readyTimeoutMs ?? 30_000;
  }

  async launch() {
    const o = this.#o;
    const codexHome = join(o.home, 'codex-home');
    await writeCodexHome(codexHome, {
      mcpUrl: o.mcp.url,
      model: o.model,
      provider: o.provider,
      // issue 41: the policy's sandbox as a permission profile that denies the data dir's state (codex-config.ts).
      sandboxMode: codexThreadPolicy(o.permissions ?? 'read-only').sandbox,
      deniedPaths: o.deniedPaths?.() ?? [],
    });
    o.signIn?.(codexHome);
    const env = {
      ...runtimeBaseEnv(),
      ...o.env,
      HOME: o.home,
      CODEX_HOME: codexHome,
      [MCP_TOKEN_ENV]: o.mcp.token,
    };
    return { command: o.command, args: ['app-server', ...o.args], env, cwd: o.cwd };
  }

  connect(ctx: DriverContext): Promise<ConnectResult> {
    return new CodexSession(ctx, this.#o).open();
  }

  timeoutMessage(ms: number): string {
    return `codex app-server was not ready within ${Math.round(ms / 1000)} s`;
  }
}

/** The app-server thread of one process. */
class CodexSession implements DriverSession {
  readonly #ctx: DriverContext;
  readonly #o: CodexDriverOptions;
  readonly #rpc: CodexRpcClient;
  #threadId: string | null = null;
  #turnId: string | null = null;
  #lastError: string | null = null;
  /** The structured reason of the turn's last `error` notification (turn/completed may carry none). */
  #lastFailure: ReturnType<typeof codexFailure> = null;
  #lastCompletedTurnId: string | null = null;

  constructor(ctx: DriverContext, options: CodexDriverOptions) {
    this.#ctx = ctx;
    this.#o = options;
    const { agentId } = options;
    const approvals = new CodexApprovals(ctx);
    this.#rpc = new CodexRpcClient(ctx.process.stdout, ctx.process.stdin, {
      onNotification: (n) => {
        approvals.observe(n);
        this.#onNotification(n);
      },
      onServerRequest: (r) => {
        ctx.log?.info('codex: answered server request', { agentId, method: r.method });
        // issue 14: approvals go to the operator (codex-approvals.ts); the rest is answered as before.
        return approvals.answer(r) ?? answerCodexServerRequest(r);
      },
      onBadLine: () => {
        if (ctx.log?.debugEnabled === true) ctx.log.debug('codex: non-JSON stdout line ignored', { agentId });
      },
      onDroppedLine: (d) => ctx.emit({ type: 'input_dropped', chars: d.chars, limit: d.limit }),
    });
  }

  async open(): Promise<ConnectResult> {
    const { rpc, o, ctx } = { rpc: this.#rpc, o: this.#o, ctx: this.#ctx };
    const init = await rpc.request('initialize', { clientInfo: CLIENT_INFO, capabilities: null });
    if (!init.ok) return { ok: false, message: `codex app-server did not initialize: ${init.error.message}` };
    rpc.notify('initialized');
    // issue 14: the agent's policy as Codex's own approvalPolicy + sandbox, on start and on resume.
    // issue 41: a sandboxed policy is the config's permission profile, named again here so it wins
    // over a `-c sandbox_mode` in the agent's args and holds on a resumed thread; a thread `sandbox`
    // would replace it and its denies (codex-config.ts), so only `full` names one.
    const { approvalPolicy, sandbox } = codexThreadPolicy(o.permissions ?? 'read-only');
    const threadParams = {
      cwd: o.cwd,
      approvalPolicy,
      ...(codexProfileBase(sandbox) === null ? { sandbox } : { config: { default_permissions: CODEX_PROFILE } }),
      developerInstructions: o.developerInstructions,
    } as const satisfies Omit<ThreadResumeParams, 'threadId'>;
    if (ctx.resumeSessionId !== null) {
      const resumed = await rpc.request('thread/resume', { threadId: ctx.resumeSessionId, ...threadParams });
      if (resumed.ok) return this.#opened(resumed.result.thread.id, true);
      ctx.log?.warn('codex: thread/resume failed; starting a fresh thread', {
        agentId: o.agentId,
        error: resumed.error.message,
      });
    }
    const started = await rpc.request('thread/start', threadParams);
    if (!started.ok) return { ok: false, message: `codex thread/start failed: ${started.error.message}` };
    return this.#opened(started.result.thread.id, false);
  }

  #opened(threadId: string, resumed: boolean): ConnectResult {
    this.#threadId = threadId;
    return { ok: true, session: this, sessionId: threadId, resumed };
  }

  async submit(text: string): Promise<WireResult> {
    const threadId = this.#threadId;
    if (this.#rpc.closed || threadId === null) return { ok: false, message: 'the Codex runtime is not running' };
    this.#lastError = null;
    const sent = this.#rpc.request('turn/start', { threadId, input: [{ type: 'text', text, text_elements: [] }] });
    markSubmitWritten('codex'); // issue 19: the line is on stdin; the answer is Codex's time
    const res = await sent;
    if (!res.ok) return { ok: false, message: `codex turn/start failed: ${boundedDetail(res.error.message)}` };
    const turnId = res.result.turn.id;
    // turn/started usually comes first; if not, an interrupt must still find the turn.
    if (this.#turnId === null && turnId !== this.#lastCompletedTurnId) this.#turnId = turnId;
    return { ok: true };
  }

  async interrupt(): Promise<WireResult> {
    const threadId = this.#threadId;
    const turnId = this.#turnId;
    if (threadId === null || turnId === null) return { ok: true };
    const res = await this.#rpc.request('turn/interrupt', { threadId, turnId });
    return res.ok
      ? { ok: true }
      : { ok: false, message: `codex turn/interrupt failed: ${boundedDetail(res.error.message)}` };
  }

  /**
   * issue 38: `thread/compact/start` (generated `ThreadCompactStartParams`): Codex runs the
   * compaction as a turn of its own (`turn/started`, the `contextCompaction` item,
   * `turn/completed`); that turn is never a host turn. Resolves at its end: completed → ok.
   */
  async compact(): Promise<WireResult> {
    const threadId = this.#threadId;
    if (this.#rpc.closed || threadId === null) return { ok: false, message: 'the Codex runtime is not running' };
    if (this.#compaction !== null) return { ok: false, message: 'a compaction is already running' };
    const done = new Promise<WireResult>((resolve) => (this.#compaction = { resolve }));
    const res = await this.#rpc.request('thread/compact/start', { threadId });
    if (!res.ok) {
      this.#compaction = null;
      return { ok: false, message: `codex thread/compact/start failed: ${boundedDetail(res.error.message)}` };
    }
    return done;
  }

  /** The running `thread/compact/start`: its turn ends it (issue 38). */
  #compaction: { readonly resolve: (result: WireResult) => void } | null = null;

  /**
   * What the running turn already reported, once each: the overflow comes as an `error` and again
   * on the failed `turn/completed` (issue 16); a compaction as the `contextCompaction` item and its
   * deprecated `thread/compacted` twin (issue 24). Cleared when the turn ends.
   */
  #reported = { overflow: false, compacted: false };

  /** issue 16, 38: the provider refused the context as too long (the host compacts the thread or renews it). */
  #overflowed(): void {
    if (this.#reported.overflow) return;
    this.#reported.overflow = true;
    this.#ctx.emit({ type: 'context_overflow' });
  }

  /** issue 24: Codex compacted the thread's context (auto or `thread/compact/start`) and goes on: a continuation. */
  #compacted(): void {
    if (this.#reported.compacted) return;
    this.#reported.compacted = true;
    this.#ctx.emit({ type: 'context_compacted' });
  }

  #onNotification(n: RpcNotification): void {
    const emit = this.#ctx.emit;
    // Every method handled here carries its thread; another thread's messages are not ours.
    switch (n.method) {
      case 'turn/started':
        if (!this.#ours(n.params.threadId)) return;
        this.#turnId = n.params.turn.id;
        this.#lastError = null;
        if (this.#compaction === null) emit({ type: 'turn_started' });
        return;
      case 'item/started': {
        const item = n.params.item;
        if (this.#ours(n.params.threadId) && isItem(item, 'mcpToolCall'))
          emit({ type: 'tool_call', name: `${item.server}/${item.tool}` });
        return;
      }
      case 'item/completed': {
        const item = n.params.item;
        if (!this.#ours(n.params.threadId)) return;
        if (isItem(item, 'agentMessage')) emit({ type: 'local_text', text: item.text });
        else if (isItem(item, 'contextCompaction')) this.#compacted();
        return;
      }
      // The deprecated twin of the `contextCompaction` item: one compaction per turn either way.
      // issue 27: the turn's token usage (Codex reports no cost) and the account's rate-limit windows.
      case 'thread/tokenUsage/updated': {
        if (!this.#ours(n.params.threadId)) return;
        const usage = codexTokenUsage(n.params);
        if (usage !== null) emit({ type: 'usage', usage });
        return;
      }
      case 'account/rateLimits/updated':
        for (const window of codexRateLimitWindows(n.params)) emit({ type: 'limit_window', window });
        return;
      case 'thread/compacted':
        if (this.#ours(n.params.threadId)) this.#compacted();
        return;
      case 'error':
        // Kept for the turn's failure detail; Codex may still retry (willRetry).
        if (!this.#ours(n.params.threadId)) return;
        this.#lastError = n.params.error.message;
        this.#lastFailure = codexFailure(n.params.error) ?? this.#lastFailure;
        if (n.params.error.codexErrorInfo === 'contextWindowExceeded') this.#overflowed();
        return;
      case 'turn/completed': {
        if (!this.#ours(n.params.threadId)) return;
        const { turn } = n.params;
        const outcome =
          turn.status === 'failed' ? 'failed' : turn.status === 'interrupted' ? 'interrupted' : 'completed';
        const message = turn.error?.message ?? this.#lastError ?? `codex turn ${outcome}`;
        // issue 15: the reason from Codex's structured error kind (HTTP status kept in the detail).
        const failure = outcome === 'failed' ? (codexFailure(turn.error) ?? this.#lastFailure) : null;
        const error =
          outcome === 'completed' ? null : failure?.status != null ? `HTTP ${failure.status}: ${message}` : message;
        if (turn.error?.codexErrorInfo === 'contextWindowExceeded') this.#overflowed();
        this.#reported = { overflow: false, compacted: false };
        this.#lastFailure = null;
        this.#lastCompletedTurnId = turn.id;
        this.#turnId = null;
        const compaction = this.#compaction;
        if (compaction !== null) {
          // issue 38: the compaction's own turn ended: no host turn, its outcome is the compaction's.
          this.#compaction = null;
          compaction.resolve(
            outcome === 'completed'
              ? { ok: true }
              : { ok: false, message: `codex could not compact the thread: ${boundedDetail(error ?? outcome)}` },
          );
          return;
        }
        emit({ type: 'turn_ended', outcome, error, ...(failure !== null ? { reason: failure.reason } : {}) });
        return;
      }
      default:
        return;
    }
  }

  /** Before the thread is open every thread is taken (as before the typed switch). */
  #ours(threadId: string): boolean {
    return this.#threadId === null || threadId === this.#threadId;
  }
}
