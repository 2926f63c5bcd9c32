/**
 * The Claude Code wire: one long-lived `claude -p --input-format stream-json --output-format
 * stream-json --verbose` per agent session (research/runtimes.md §3); the skeleton
 * (runtime-skeleton.ts) does the rest.
 *
 * Final-check (contract §8.3) is `in_turn`, through the control-protocol Stop hook: at
 * `initialize` we register a `Stop` hook callback; when the model is about to stop, the CLI
 * asks us (`hook_callback`), the skeleton asks the host, and we answer
 * `{decision:'block', reason:<final-check>}` or `{}`. Why the hook and not a follow-up user
 * message: the check stays inside the same turn before idle (one `result` for the whole turn,
 * so nothing can interleave between "turn ended" and "check injected"), it needs no hook
 * script on disk, and the CLI tells us the boundary instead of us inferring it from `result`.
 * Resuming is the `--resume` flag (resumeAt `launch`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { McpEndpoint } from '../../mcp/mcp-server.js';
import type { AuthMode } from '../../../../shared/agent-readiness.js';
import type { PersonProfile } from '../auth/person-profile.js';
import type { DriverContext, DriverSession, WireResult } from '../driver-session.js';
import type { AgentLaunchOptions, ConnectResult, RuntimeDriver } from '../runtime-driver.js';
import type { PermissionPolicy } from '../../../../shared/config.js';
import { initialTurnState, mapClaudeEvent, resultErrorDetail } from './claude-event-mapper.js';
import { claudeApprovalAsk, claudePermissionResult } from './claude-permissions.js';
import { claudeLaunch } from './claude-launch.js';
import { CLAUDE_WORDS } from './claude-auth.js';
import { gitMetadataPaths } from '../workspace.js';
import {
  claudeStreamMessage,
  type ClaudeControlRequestMessage,
  type ClaudeStreamMessage,
} from './claude-stream-types.js';
import { StreamJsonParser } from './stream-json-parser.js';

export interface ClaudeDriverOptions extends AgentLaunchOptions {
  /** null → this project's node_modules/.bin/claude, else `claude` on PATH. */
  readonly command: string | null;
  readonly mcp: McpEndpoint;
  /** Per-agent dir for HOME and CLAUDE_CONFIG_DIR. */
  readonly runtimeDir: string;
  /** Where this project is installed (node_modules/.bin/claude). */
  readonly projectRoot: string;
  /** The thread contract text (`--append-system-prompt`); never the per-turn contract block (contract §8.1). */
  readonly threadContract?: string | null;
  /** The daemon's environment (filtered); defaults to process.env. */
  readonly processEnv?: Readonly<Record<string, string | undefined>>;
  /** How long the CLI may take to answer `initialize`. */
  readonly startTimeoutMs?: number;
  /** issue 15: sign-in mode and the person whose sign-in is reused (claude-auth.ts). */
  readonly auth?: AuthMode;
  readonly person?: PersonProfile;
  /** issue 14: the agent's permission policy (claude-permissions.ts). */
  readonly permissions?: PermissionPolicy;
  /** issue 29: paths under the data dir its tools are denied (workspace.ts `toolDeniedPaths`), read at each launch. */
  readonly deniedPaths?: () => readonly string[];
}

const STOP_HOOK_ID = 'agentteam_stop';

/** A running `/compact` (issue 38). */
interface Compaction {
  /** `compact_result` of its status message (`success` | `failed`), or `success` at its `compact_boundary`. */
  result: string | null;
  /** `compact_error` of a failed one (Claude Code's own code, e.g. `too_few_groups`). */
  error: string | null;
  readonly resolve: (result: WireResult) => void;
}

export class ClaudeDriver implements RuntimeDriver {
  readonly runtime = 'claude-code' as const;
  readonly label = CLAUDE_WORDS.label;
  readonly finalCheck = 'in_turn' as const;
  readonly resumeAt = 'launch' as const;
  /** Closing stdin ends a stream-json session cleanly (exit 0) before any signal. */
  readonly stdinGraceMs = 3000;
  readonly startTimeoutMs: number;
  readonly #o: ClaudeDriverOptions;

  constructor(options: ClaudeDriverOptions) {
    this.#o = options;
    this.startTimeoutMs = options.startTimeoutMs ?? 60_000;
  }

  async launch(resumeSessionId: string | null) {
    const o = this.#o;
    const launch = claudeLaunch({
      command: o.command,
      args: o.args,
      env: o.env,
      model: o.model,
      mcp: o.mcp,
      runtimeDir: o.runtimeDir,
      resumeSessionId,
      processEnv: o.processEnv ?? process.env,
      projectRoot: o.projectRoot,
      threadContract: o.threadContract ?? null,
      ...(o.auth === undefined ? {} : { auth: o.auth }),
      ...(o.person === undefined ? {} : { person: o.person }),
      ...(o.permissions !== undefined ? { permissions: o.permissions } : {}),
      ...(o.deniedPaths === undefined ? {} : { deniedPaths: o.deniedPaths() }),
      // issue 41: its workspace's git metadata, found at each launch (a worktree's git dir included).
      gitPaths: gitMetadataPaths(o.cwd),
    });
    mkdirSync(launch.home, { recursive: true, mode: 0o700 });
    mkdirSync(launch.configDir, { recursive: true, mode: 0o700 });
    writeFileSync(launch.mcpConfigFile.path, launch.mcpConfigFile.content, { mode: 0o600 });
    return { command: launch.command, args: launch.args, env: launch.env, cwd: o.cwd };
  }

  connect(ctx: DriverContext): Promise<ConnectResult> {
    return new ClaudeSession(ctx).open();
  }

  timeoutMessage(ms: number): string {
    return `Claude Code did not answer initialize within ${ms / 1000} s; check "command" and "args" of agent "${this.#o.agentId}" in agentteam.json.`;
  }
}

/** The stream-json session of one process. */
class ClaudeSession implements DriverSession {
  readonly #ctx: DriverContext;
  readonly #state = initialTurnState();
  readonly #initId: string;
  #requestSeq = 0;
  #opened: (result: ConnectResult) => void = () => undefined;

  constructor(ctx: DriverContext) {
    this.#ctx = ctx;
    this.#initId = `agentteam_init_${ctx.generation}`;
  }

  open(): Promise<ConnectResult> {
    const parser = new StreamJsonParser({
      onDropped: (d) => this.#ctx.emit({ type: 'input_dropped', chars: d.chars, limit: d.limit }),
    });
    const stdout = this.#ctx.process.stdout;
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      // A plain line (e.g. "No conversation found …") is tolerated; stderr keeps the diagnostics.
      for (const line of parser.push(chunk)) {
        const message = line.ok ? claudeStreamMessage(line.value) : null;
        if (message !== null) this.#onMessage(message);
      }
    });
    return new Promise((resolve) => {
      this.#opened = resolve;
      void this.#write({
        type: 'control_request',
        request_id: this.#initId,
        request: { subtype: 'initialize', hooks: { Stop: [{ matcher: null, hookCallbackIds: [STOP_HOOK_ID] }] } },
      });
    });
  }

  async submit(text: string): Promise<WireResult> {
    return (await this.#write({ type: 'user', message: { role: 'user', content: text } }))
      ? { ok: true }
      : {
          ok: false,
          message: 'Writing to the Claude Code process failed (it is exiting); the delivery was not written.',
        };
  }

  async interrupt(): Promise<WireResult> {
    if (!this.#state.turnOpen) return { ok: true };
    this.#state.interruptRequested = true;
    this.#requestSeq += 1;
    const wrote = await this.#write({
      type: 'control_request',
      request_id: `agentteam_interrupt_${this.#requestSeq}`,
      request: { subtype: 'interrupt' },
    });
    return wrote ? { ok: true } : { ok: false, message: 'the Claude Code process is not running' };
  }

  /**
   * issue 38: `/compact` written as a user message into this stream-json session (Claude Code
   * 2.1.197): `system/status` "compacting", then one with `compact_result` (`success` | `failed`
   * with `compact_error`), on success the `compact_boundary` and the summary replayed, then one
   * `result` that ends it. That wire turn is the compaction's own, never a host turn.
   */
  compact(): Promise<WireResult> {
    if (this.#compaction !== null) return Promise.resolve({ ok: false, message: 'a compaction is already running' });
    return new Promise((resolve) => {
      const compaction: Compaction = { result: null, error: null, resolve };
      this.#compaction = compaction;
      void this.submit('/compact').then((res) => {
        if (res.ok || this.#compaction !== compaction) return;
        this.#compaction = null;
        resolve(res);
      });
    });
  }

  /** The running `/compact`: what its status said, and who waits for its end. */
  #compaction: Compaction | null = null;

  /** A message of the running `/compact` (see `compact`): consumed here, never mapped onto a turn. */
  #onCompaction(c: Compaction, ev: ClaudeStreamMessage): void {
    if (ev.type === 'system' && ev.subtype === 'status' && typeof ev.compact_result === 'string') {
      c.result = ev.compact_result;
      c.error = typeof ev.compact_error === 'string' ? ev.compact_error : null;
    } else if (ev.type === 'system' && ev.subtype === 'compact_boundary') {
      c.result = 'success';
      this.#ctx.emit({ type: 'context_compacted' });
    } else if (ev.type === 'result') {
      this.#compaction = null;
      this.#state.turnOpen = false;
      c.resolve(
        c.result === 'success' && ev.is_error !== true
          ? { ok: true }
          : {
              ok: false,
              message: `Claude Code could not compact the session (${c.error ?? (ev.is_error === true ? resultErrorDetail(ev) : (c.result ?? 'no compaction reported'))})`,
            },
      );
    }
  }

  #onMessage(ev: ClaudeStreamMessage): void {
    const compaction = this.#compaction;
    if (compaction !== null && ev.type !== 'control_request' && ev.type !== 'control_response')
      return this.#onCompaction(compaction, ev);
    if (ev.type === 'control_response') {
      const { response } = ev;
      if (response.request_id !== this.#initId) return;
      this.#opened(
        response.subtype === 'success'
          ? { ok: true, session: this, sessionId: null, resumed: this.#ctx.resumeSessionId !== null }
          : { ok: false, message: `Claude Code refused initialize: ${response.error ?? 'unknown error'}` },
      );
      return;
    }
    if (ev.type === 'control_request') {
      void this.#onControlRequest(ev);
      return;
    }
    for (const event of mapClaudeEvent(this.#state, ev)) this.#ctx.emit(event);
  }

  async #onControlRequest(ev: ClaudeControlRequestMessage): Promise<void> {
    const { request_id: requestId, request } = ev;
    if (request.subtype === 'hook_callback' && request.callback_id === STOP_HOOK_ID) {
      await this.#ctx.askInTurn((finalCheck) =>
        this.#write({
          type: 'control_response',
          response: {
            subtype: 'success',
            request_id: requestId,
            response: finalCheck === null ? {} : { decision: 'block', reason: finalCheck },
          },
        }),
      );
      return;
    }
    // issue 14: `--permission-prompt-tool stdio` asks here; the operator answers (claude-permissions.ts).
    if (request.subtype === 'can_use_tool') {
      const answer = await this.#ctx.askApproval(claudeApprovalAsk(request));
      await this.#write({
        type: 'control_response',
        response: { subtype: 'success', request_id: requestId, response: claudePermissionResult(request, answer) },
      });
      return;
    }
    // We register no other callbacks.
    await this.#write({
      type: 'control_response',
      response: {
        subtype: 'error',
        request_id: requestId,
        error: `agentteam does not handle ${request.subtype}`,
      },
    });
  }

  #write(message: unknown): Promise<boolean> {
    const proc = this.#ctx.process;
    const stdin = proc.stdin;
    if (proc.exit !== null || stdin.destroyed || stdin.writableEnded) return Promise.resolve(false);
    return new Promise((resolve) => {
      stdin.write(`${JSON.stringify(message)}\n`, (err) => resolve(err === null || err === undefined));
    });
  }
}
