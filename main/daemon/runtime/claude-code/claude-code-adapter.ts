/**
 * Claude Code runtime adapter: one long-lived `claude -p --input-format stream-json
 * --output-format stream-json --verbose` per agent session (research/runtimes.md §3).
 *
 * Final-check (contract §8.3) goes through the control-protocol Stop hook: at `initialize`
 * we register a `Stop` hook callback; when the model is about to stop, the CLI asks us
 * (`hook_callback`), we ask the host (`onTurnBoundary`) and answer
 * `{decision:'block', reason:<final-check>}` or `{}`. Why the hook and not a follow-up user
 * message: the check stays inside the same turn before idle (one `result` for the whole
 * turn, so nothing can interleave between "turn ended" and "check injected", and a message
 * queued meanwhile cannot overtake it), it needs no hook script on disk, and the CLI tells us
 * the boundary instead of us inferring it from `result`. A follow-up user message is kept
 * only as the fallback for a successful turn whose Stop hook never fired.
 *
 * Process exit → `exit` event (the host fails that process's pending rows), then a
 * supervised restart with capped backoff; `--resume` only when the stored session's
 * thread-contract fingerprint equals the current one.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { asyncScheduler, Subject, timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { DaemonLog } from '../../daemon-types.js';
import type { McpEndpoint } from '../../mcp/mcp-server.js';
import {
  boundedDetail,
  type DeliverResult,
  type RuntimeAdapter,
  type RuntimeEvent,
  type RuntimeEventEnvelope,
  type StartResult,
  type TurnBoundaryHost,
} from '../runtime-adapter.js';
import type { RuntimeSessionStore } from '../runtime-session-store.js';
import { DEFAULT_RESTART_POLICY, RestartSupervisor, type RestartPolicy } from '../supervisor.js';
import { initialTurnState, mapClaudeEvent, type ClaudeTurnState } from './claude-event-mapper.js';
import { claudeLaunch } from './claude-launch.js';
import { StreamJsonParser } from './stream-json-parser.js';

export interface ClaudeCodeAdapterOptions {
  readonly agentId: string;
  /** From the agent's config (DESIGN.md "Config"). */
  readonly command: string | null;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly model: string | null;
  /** Absolute working directory of the runtime. */
  readonly cwd: string;
  readonly mcp: McpEndpoint;
  /** Per-agent dir for HOME and CLAUDE_CONFIG_DIR. */
  readonly runtimeDir: string;
  /** Where this project is installed (node_modules/.bin/claude). */
  readonly projectRoot: string;
  /** The thread contract text (`--append-system-prompt`); never the per-turn contract block (contract §8.1). */
  readonly threadContract?: string | null;
  /** Thread-contract fingerprint of this start; a stored session is resumed only when it matches. */
  readonly threadContractFingerprint: string;
  readonly sessionStore: RuntimeSessionStore;
  readonly host: TurnBoundaryHost;
  /** The daemon's environment (filtered); defaults to process.env. */
  readonly processEnv?: Readonly<Record<string, string | undefined>>;
  readonly restartPolicy?: RestartPolicy;
  /** Schedules restart delays and stop timeouts (TestScheduler in tests). */
  readonly scheduler?: SchedulerLike;
  /** How long the CLI may take to answer `initialize`. */
  readonly startTimeoutMs?: number;
  readonly log?: DaemonLog;
}

const STOP_HOOK_ID = 'agentteam_stop';
/** contract §6.4 is the host's to keep; this only stops a misbehaving host from looping a turn forever. */
const MAX_BLOCKS_PER_TURN = 3;
const STOP_GRACE_MS = 3000;
const KILL_GRACE_MS = 2000;

interface ClaudeProcess {
  readonly generation: number;
  readonly child: ChildProcessWithoutNullStreams;
  readonly resumed: boolean;
  readonly state: ClaudeTurnState;
  ready: boolean;
  exited: boolean;
  /** Whether the host was asked at a boundary during the current turn. */
  boundaryAsked: boolean;
  /** Final-checks injected through the Stop hook in the current turn. */
  blocks: number;
  /** A user message was written and its `result` has not arrived: the next delivery waits (one turn per delivery). */
  inFlight: boolean;
  /** First non-JSON output lines (e.g. "No conversation found …"), for the failure detail. */
  readonly plainLines: string[];
  readonly exitedPromise: Promise<void>;
}

export class ClaudeCodeAdapter implements RuntimeAdapter {
  readonly runtime = 'claude-code' as const;
  private readonly events = new Subject<RuntimeEventEnvelope>();
  readonly events$ = this.events.asObservable();
  private readonly supervisor: RestartSupervisor;
  private readonly scheduler: SchedulerLike;
  private current: ClaudeProcess | null = null;
  private generation = 0;
  private stopping = false;
  private restartTimer: Subscription | null = null;
  private requestSeq = 0;
  /**
   * Deliveries written while a turn runs would be folded into it by Claude Code, so the turn's
   * Stop would count them as runtime-visible and ask for a premature final-check (found by the
   * shared runtime conformance table): they wait here and each starts its own turn.
   */
  private waiting: Array<{ readonly text: string; readonly resolve: (r: DeliverResult) => void }> = [];

  constructor(private readonly options: ClaudeCodeAdapterOptions) {
    this.supervisor = new RestartSupervisor(options.restartPolicy ?? DEFAULT_RESTART_POLICY);
    this.scheduler = options.scheduler ?? asyncScheduler;
  }

  async start(): Promise<StartResult> {
    if (this.current !== null && !this.current.exited)
      return { ok: true, sessionId: this.current.state.sessionId, resumed: this.current.resumed };
    this.stopping = false;
    this.supervisor.reset();
    const first = await this.spawnAndWait();
    // A stale session (transcript gone) makes `--resume` exit before ready; onExit forgot it: start fresh once.
    if (!first.result.ok && first.result.code === 'exited' && first.resumed) return (await this.spawnAndWait()).result;
    return first.result;
  }

  async deliver(text: string): Promise<DeliverResult> {
    const proc = this.current;
    if (proc === null || proc.exited || !proc.ready)
      return {
        ok: false,
        code: 'not_running',
        message: 'The Claude Code runtime is not running (starting or restarting); the delivery was not written.',
      };
    if (proc.inFlight || this.waiting.length > 0) return new Promise((resolve) => this.waiting.push({ text, resolve }));
    return this.writeDelivery(proc, text);
  }

  private async writeDelivery(proc: ClaudeProcess, text: string): Promise<DeliverResult> {
    proc.inFlight = true;
    return (await this.write(proc, { type: 'user', message: { role: 'user', content: text } }))
      ? { ok: true }
      : {
          ok: false,
          code: 'write_failed',
          message: 'Writing to the Claude Code process failed (it is exiting); the delivery was not written.',
        };
  }

  async interrupt(): Promise<void> {
    const proc = this.current;
    if (proc === null || proc.exited || !proc.state.turnOpen) return;
    proc.state.interruptRequested = true;
    await this.write(proc, {
      type: 'control_request',
      request_id: this.nextRequestId('interrupt'),
      request: { subtype: 'interrupt' },
    });
  }

  /** Stops for good: events$ completes; make a new adapter to run again. */
  async stop(): Promise<void> {
    if (this.stopping && this.current === null) return;
    this.stopping = true;
    this.restartTimer?.unsubscribe();
    this.restartTimer = null;
    const proc = this.current;
    if (proc !== null && !proc.exited) {
      // Closing stdin ends a stream-json session cleanly; then TERM, then KILL, to the whole process group.
      proc.child.stdin.end();
      if (!(await this.exitWithin(proc, STOP_GRACE_MS))) {
        this.killGroup(proc, 'SIGTERM');
        if (!(await this.exitWithin(proc, KILL_GRACE_MS))) {
          this.killGroup(proc, 'SIGKILL');
          await proc.exitedPromise;
        }
      }
    }
    this.current = null;
    this.events.complete();
  }

  /** The pid of the running process (tests, diagnostics). */
  get pid(): number | null {
    return this.current !== null && !this.current.exited ? (this.current.child.pid ?? null) : null;
  }

  private emit(generation: number, event: RuntimeEvent): void {
    if (!this.events.closed) this.events.next({ ...event, generation });
  }

  private nextRequestId(kind: string): string {
    this.requestSeq += 1;
    return `agentteam_${kind}_${this.requestSeq}`;
  }

  private spawnAndWait(): Promise<{ result: StartResult; resumed: boolean }> {
    return new Promise((resolveBoth) => {
      let resumed = false;
      let timeout: Subscription | null = null;
      let settled = false;
      const resolve = (result: StartResult) => {
        if (settled) return;
        settled = true;
        timeout?.unsubscribe();
        resolveBoth({ result, resumed });
      };
      const proc = this.spawnProcess(resolve);
      if (proc === null || settled) return;
      resumed = proc.resumed;
      const ms = this.options.startTimeoutMs ?? 60_000;
      timeout = timer(ms, this.scheduler).subscribe(() => {
        this.killGroup(proc, 'SIGKILL');
        resolve({
          ok: false,
          code: 'start_timeout',
          message: `Claude Code did not answer initialize within ${ms / 1000} s; check "command" and "args" of agent "${this.options.agentId}" in agentteam.json.`,
        });
      });
    });
  }

  /** Spawns one process generation; `onStart` (first start only) hears ready or failure. */
  private spawnProcess(onStart: ((r: StartResult) => void) | null): ClaudeProcess | null {
    const o = this.options;
    const stored = o.sessionStore.load();
    const resumeSessionId =
      stored !== null && stored.fingerprint === o.threadContractFingerprint ? stored.sessionId : null;
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
    });
    mkdirSync(launch.home, { recursive: true });
    mkdirSync(launch.configDir, { recursive: true });
    writeFileSync(launch.mcpConfigFile.path, launch.mcpConfigFile.content, { mode: 0o600 });
    this.generation += 1;
    const generation = this.generation;
    let child: ChildProcessWithoutNullStreams;
    try {
      // Own process group, so stop() can end everything the CLI spawned.
      child = spawn(launch.command, launch.args, {
        cwd: o.cwd,
        env: launch.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (err) {
      onStart?.({
        ok: false,
        code: 'spawn_failed',
        message: `Could not start "${launch.command}": ${err instanceof Error ? err.message : String(err)}. Set "command" of agent "${o.agentId}" in agentteam.json.`,
      });
      return null;
    }
    let markExited: () => void = () => undefined;
    const exitedPromise = new Promise<void>((r) => (markExited = r));
    const proc: ClaudeProcess = {
      generation,
      child,
      resumed: resumeSessionId !== null,
      state: initialTurnState(),
      ready: false,
      exited: false,
      boundaryAsked: false,
      blocks: 0,
      inFlight: false,
      plainLines: [],
      exitedPromise,
    };
    this.current = proc;
    o.log?.info('claude-code starting', { agentId: o.agentId, generation, resume: resumeSessionId !== null });

    const parser = new StreamJsonParser();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      for (const line of parser.push(chunk))
        this.onLine(proc, line.ok ? line.value : null, line.ok ? null : line.line, onStart);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (proc.plainLines.length < 5) proc.plainLines.push(chunk.trim().slice(0, 200));
    });
    child.stdin.on('error', () => undefined); // EPIPE after exit: reported by write() and the exit event.

    const onExit = (code: number | null, signal: NodeJS.Signals | null, spawnError: Error | null) => {
      if (proc.exited) return;
      proc.exited = true;
      markExited();
      for (const w of this.waiting.splice(0))
        w.resolve({
          ok: false,
          code: 'not_running',
          message: 'The Claude Code runtime exited before this delivery could be written.',
        });
      const expected = this.stopping;
      const detail =
        spawnError !== null
          ? `could not start "${launch.command}": ${spawnError.message}`
          : (proc.plainLines.find((l) => l !== '') ?? null);
      if (!proc.ready) {
        if (proc.resumed) o.sessionStore.clear();
        onStart?.(
          spawnError !== null
            ? {
                ok: false,
                code: 'spawn_failed',
                message: `Could not start "${launch.command}" (${spawnError.message}). Set "command" of agent "${o.agentId}" in agentteam.json.`,
              }
            : {
                ok: false,
                code: 'exited',
                message: boundedDetail(
                  `Claude Code exited (code ${code}, signal ${signal}) before it was ready${detail !== null ? `: ${detail}` : ''}`,
                ),
              },
        );
      }
      if (proc.state.turnOpen && !expected)
        this.emit(generation, {
          type: 'runtime_error',
          detail: boundedDetail(`Claude Code exited during a turn (code ${code}, signal ${signal})`),
        });
      this.emit(generation, { type: 'exit', code, signal, expected });
      o.log?.info('claude-code exited', { agentId: o.agentId, generation, code, signal, expected });
      if (this.current === proc) this.current = null;
      // A supervised restart that dies before ready (e.g. `--resume` of a session killed before its
      // transcript was written: "No conversation found") is retried — fresh, the stale session was
      // forgotten above — until the supervisor's cap (gave_up); never left down without a word.
      if (!expected && (proc.ready || onStart === null)) this.scheduleRestart(generation);
    };
    child.on('exit', (code, signal) => onExit(code, signal, null));
    child.on('error', (err) => onExit(null, null, err));

    void this.write(proc, {
      type: 'control_request',
      request_id: `agentteam_init_${generation}`,
      request: { subtype: 'initialize', hooks: { Stop: [{ matcher: null, hookCallbackIds: [STOP_HOOK_ID] }] } },
    });
    return proc;
  }

  private scheduleRestart(generation: number): void {
    const decision = this.supervisor.onCrash(this.scheduler.now());
    if (!decision.restart) {
      this.emit(generation, { type: 'gave_up', restarts: decision.restarts });
      this.options.log?.error('claude-code restart cap reached', {
        agentId: this.options.agentId,
        restarts: decision.restarts,
      });
      return;
    }
    this.emit(generation, { type: 'restart_scheduled', attempt: decision.attempt, delayMs: decision.delayMs });
    this.restartTimer = timer(decision.delayMs, this.scheduler).subscribe(() => {
      this.restartTimer = null;
      if (this.stopping) return;
      const proc = this.spawnProcess(null);
      if (proc === null) this.scheduleRestart(generation);
    });
  }

  private onLine(
    proc: ClaudeProcess,
    ev: Record<string, unknown> | null,
    plain: string | null,
    onStart: ((r: StartResult) => void) | null,
  ): void {
    if (ev === null) {
      if (plain !== null && proc.plainLines.length < 5) proc.plainLines.push(plain.slice(0, 200));
      return;
    }
    if (ev.type === 'control_response') {
      const response = ev.response as { request_id?: string; subtype?: string; error?: string } | undefined;
      if (response?.request_id === `agentteam_init_${proc.generation}`) {
        if (response.subtype !== 'success') {
          this.emit(proc.generation, {
            type: 'runtime_error',
            detail: boundedDetail(`initialize refused: ${response.error ?? 'unknown error'}`),
          });
          this.killGroup(proc, 'SIGTERM');
          return;
        }
        proc.ready = true;
        this.emit(proc.generation, { type: 'ready', sessionId: proc.state.sessionId, resumed: proc.resumed });
        onStart?.({ ok: true, sessionId: proc.state.sessionId, resumed: proc.resumed });
      }
      return;
    }
    if (ev.type === 'control_request') {
      void this.onControlRequest(proc, ev);
      return;
    }
    // Before initialize is answered nothing was delivered: an early `result` (a failed `--resume`)
    // is not a turn, and must not show the agent busy/idle or fail rows (the exit reports it).
    if (!proc.ready) return;
    if (
      ev.type === 'system' &&
      ev.subtype === 'init' &&
      typeof ev.session_id === 'string' &&
      ev.session_id !== proc.state.sessionId
    ) {
      // The session exists once a turn starts; remember it with the fingerprint it was created under.
      this.options.sessionStore.save({ sessionId: ev.session_id, fingerprint: this.options.threadContractFingerprint });
    }
    for (const event of mapClaudeEvent(proc.state, ev)) {
      if (event.type === 'turn_start') {
        proc.boundaryAsked = false;
        proc.blocks = 0;
      }
      this.emit(proc.generation, event);
      if (event.type === 'turn_end') {
        proc.inFlight = false;
        if (event.outcome === 'completed' && !proc.boundaryAsked)
          void this.fallbackBoundary(proc).then(() => this.pumpWaiting(proc));
        else this.pumpWaiting(proc);
      }
    }
  }

  private async onControlRequest(proc: ClaudeProcess, ev: Record<string, unknown>): Promise<void> {
    const requestId = typeof ev.request_id === 'string' ? ev.request_id : '';
    const request = ev.request as { subtype?: string; callback_id?: string } | undefined;
    if (request?.subtype === 'hook_callback' && request.callback_id === STOP_HOOK_ID) {
      proc.boundaryAsked = true;
      let text = await this.askBoundary(proc, 'stop_hook');
      if (text !== null && proc.blocks >= MAX_BLOCKS_PER_TURN) {
        this.emit(proc.generation, {
          type: 'final_check',
          outcome: 'failed',
          via: 'stop_hook',
          detail: `more than ${MAX_BLOCKS_PER_TURN} final-checks in one turn; the turn is allowed to end`,
        });
        text = null;
      }
      if (text !== null) proc.blocks += 1;
      const wrote = await this.write(proc, {
        type: 'control_response',
        response: {
          subtype: 'success',
          request_id: requestId,
          response: text === null ? {} : { decision: 'block', reason: text },
        },
      });
      if (text !== null)
        this.emit(proc.generation, {
          type: 'final_check',
          outcome: wrote ? 'injected' : 'failed',
          via: 'stop_hook',
          detail: wrote ? null : 'the Claude Code process stopped before the final-check was written',
        });
      return;
    }
    // We register no other callbacks and grant no permissions interactively (dontAsk + allowedTools).
    await this.write(proc, {
      type: 'control_response',
      response: {
        subtype: 'error',
        request_id: requestId,
        error: `agentteam does not handle ${request?.subtype ?? 'this request'}`,
      },
    });
  }

  /** A successful turn whose Stop hook never fired: ask now and inject as a follow-up user message. */
  /** Writes the next waiting delivery once no turn is in flight. */
  private pumpWaiting(proc: ClaudeProcess): void {
    if (proc.exited || proc.inFlight || this.current !== proc) return;
    const next = this.waiting.shift();
    if (next !== undefined) void this.writeDelivery(proc, next.text).then(next.resolve);
  }

  private async fallbackBoundary(proc: ClaudeProcess): Promise<void> {
    proc.boundaryAsked = true;
    const text = await this.askBoundary(proc, 'user_message');
    if (text === null) return;
    proc.inFlight = true;
    const wrote = !proc.exited && (await this.write(proc, { type: 'user', message: { role: 'user', content: text } }));
    this.emit(proc.generation, {
      type: 'final_check',
      outcome: wrote ? 'injected' : 'failed',
      via: 'user_message',
      detail: wrote ? null : 'the Claude Code process is not running',
    });
  }

  private async askBoundary(proc: ClaudeProcess, via: 'stop_hook' | 'user_message'): Promise<string | null> {
    try {
      return await this.options.host.onTurnBoundary();
    } catch (err) {
      this.emit(proc.generation, {
        type: 'final_check',
        outcome: 'failed',
        via,
        detail: boundedDetail(`host error: ${err instanceof Error ? err.message : String(err)}`),
      });
      return null;
    }
  }

  private write(proc: ClaudeProcess, message: unknown): Promise<boolean> {
    if (proc.exited || proc.child.stdin.destroyed || proc.child.stdin.writableEnded) return Promise.resolve(false);
    return new Promise((resolve) => {
      proc.child.stdin.write(`${JSON.stringify(message)}\n`, (err) => resolve(err === null || err === undefined));
    });
  }

  private exitWithin(proc: ClaudeProcess, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const t = timer(ms, this.scheduler).subscribe(() => resolve(false));
      void proc.exitedPromise.then(() => {
        t.unsubscribe();
        resolve(true);
      });
    });
  }

  private killGroup(proc: ClaudeProcess, signal: NodeJS.Signals): void {
    const pid = proc.child.pid;
    if (pid === undefined || proc.exited) return;
    try {
      process.kill(-pid, signal);
    } catch {
      proc.child.kill(signal);
    }
  }
}
