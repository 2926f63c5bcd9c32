/**
 * The one runtime adapter every CLI runtime is built from (Claude Code, Codex, OpenCode): a
 * `RuntimeDriver` supplies the wire (runtime-driver.ts); this skeleton supplies, once, what
 * every runtime needs around it (STYLE.md habit 12):
 *
 * - the process in its own process group, stopped with every child (runtime-process.ts), its
 *   stderr tail kept for diagnostics only;
 * - a generation per process, so an event of a replaced process can never settle a newer turn;
 * - the session store: resume only when the thread-contract fingerprint matches (contract §8.1);
 * - the prompt queue: one turn per delivery and per final-check (prompt-queue.ts);
 * - the final-check at the turn boundary (contract §8.3), in the driver's mode: `in_turn`
 *   (the runtime asks before idle, e.g. Claude's Stop hook) or `next_turn` (asked at a completed
 *   turn end, submitted as the next turn while the logical turn stays open);
 * - crash → `runtime_error` (mid-turn) + `exit`, then a capped restart with backoff
 *   (`RestartSupervisor`), `gave_up` at the cap;
 * - every wait (start timeout, restart delay, stop grace) on the injected RxJS scheduler.
 *
 * Runtime text is never a message (contract §6.1, §6.5): local text leaves here as counts.
 */
import { asyncScheduler, firstValueFrom, from, map, race, timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { FailureReason, RuntimeKind } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import { classifyRuntimeFailure } from './failure-classifier.js';
import { PromptQueue } from './prompt-queue.js';
import { boundedDetail, textMetrics } from '../diagnostics.js';
import { isAgentToolsCommand } from './agent-cli-command.js';
import { withDirOnPath } from './agent-cli-shim.js';
import { askApprovalHost, type ApprovalAnswer } from './approval-port.js';
import type { DeliverResult, RuntimeAdapter, StartResult, TurnBoundaryHost } from './runtime-adapter.js';
import { RuntimeEventStream } from './runtime-event-stream.js';
import type { DriverContext, DriverEvent, DriverSession } from './driver-session.js';
import type { ConnectResult, LaunchSpec, RuntimeDriver } from './runtime-driver.js';
import type { RuntimePidRecorder } from './runtime-pids.js';
import type { RuntimeProcess, ProcessExit } from './runtime-process.js';
import { LOCAL_LAUNCHER, type ProcessLauncher } from './process-launcher.js';
import type { RuntimeSessionStore } from './runtime-session-store.js';
import { DEFAULT_RESTART_POLICY, RestartSupervisor, type RestartPolicy } from './supervisor.js';

export interface RuntimeSkeletonOptions {
  readonly agentId: string;
  readonly driver: RuntimeDriver;
  readonly host: TurnBoundaryHost;
  /** Thread-contract fingerprint of this start; a stored session is resumed only when it matches. */
  readonly threadContractFingerprint: string;
  readonly sessionStore: RuntimeSessionStore;
  readonly restartPolicy?: RestartPolicy;
  /** Start timeouts, restart delays and stop grace periods (a virtual-time scheduler in tests). */
  readonly scheduler?: SchedulerLike;
  readonly log?: DaemonLog;
  /**
   * Set in every runtime process's environment on top of the driver's (the agent's MCP endpoint
   * and own token for `agentteam agent send|react`: contract §8.2 CLI agent-tools).
   */
  readonly agentEnv?: Readonly<Record<string, string>>;
  /**
   * issue 14: the `agentteam` shim (agent-cli-shim.ts): its folder goes first on the runtime's PATH;
   * `trusted()` says whether the agent's own `agentteam agent …` may run unasked right now.
   */
  readonly agentCli?: { readonly dir: string; trusted(): boolean };
  /** Records each spawned process so the next daemon can end it if this one is killed (runtime-pids.ts). */
  readonly pids?: RuntimePidRecorder;
  /** issue 43: how the CLI process starts — on this machine (default) or on the agent's host over SSH. */
  readonly launcher?: ProcessLauncher;
}

/** The answer to the agent's own `agentteam agent …` command: allowed, never recorded as an approval. */
const OWN_AGENT_TOOLS: ApprovalAnswer = { decision: 'allow', scope: 'once', status: 'allowed', reason: null };

/** contract §6.4 is the host's to keep; this only stops a misbehaving host from looping a turn forever. */
const MAX_IN_TURN_CHECKS = 3;

type Opening = ConnectResult | 'timeout' | 'exited';

export class RuntimeSkeleton implements RuntimeAdapter {
  readonly runtime: RuntimeKind;
  readonly driver: RuntimeDriver;
  readonly #o: RuntimeSkeletonOptions;
  readonly #events = new RuntimeEventStream();
  readonly events$ = this.#events.events$;
  readonly #supervisor: RestartSupervisor;
  readonly #scheduler: SchedulerLike;
  readonly #launcher: ProcessLauncher;
  readonly #queue = new PromptQueue((text) => this.#submit(text));
  #generation = 0;
  #proc: RuntimeProcess | null = null;
  /** The open session of the current process: set from ready until its exit. */
  #session: DriverSession | null = null;
  #sessionId: string | null = null;
  #resumed = false;
  /** The current process was killed here because its start failed: its exit is expected. */
  #abandoned = false;
  /** Why the current process was killed here although it ran (`process_unusable`): its exit's detail. */
  #unusable: string | null = null;
  #stopping = false;
  #stopped: Promise<void> | null = null;
  #restartTimer: Subscription | null = null;
  /** The host's logical turn (`next_turn`: a delivery turn and its final-check turn are one). */
  #turnOpen = false;
  /** Whether the host was asked at a boundary of the current runtime turn, and how often it injected. */
  #asked = false;
  #checks = 0;

  constructor(options: RuntimeSkeletonOptions) {
    this.#o = options;
    this.#launcher = options.launcher ?? LOCAL_LAUNCHER;
    this.driver = options.driver;
    this.runtime = options.driver.runtime;
    this.#supervisor = new RestartSupervisor(options.restartPolicy ?? DEFAULT_RESTART_POLICY);
    this.#scheduler = options.scheduler ?? asyncScheduler;
  }

  /** The current process generation (0 before the first start). */
  get generation(): number {
    return this.#generation;
  }

  /** The pid of the running process (tests, diagnostics). */
  get pid(): number | null {
    return this.#proc !== null && this.#proc.exit === null ? this.#proc.pid : null;
  }

  /** The last process's pid and bounded stderr tail: for a person debugging, never a message. */
  diagnostics(): { readonly pid: number | null; readonly stderrTail: string } {
    return { pid: this.#proc?.pid ?? null, stderrTail: this.#proc?.stderrTail ?? '' };
  }

  /** Tests ("no orphans"): whether any process of the last process group still runs. */
  processGroupAlive(): boolean {
    return this.#proc?.groupAlive() ?? false;
  }

  async start(): Promise<StartResult> {
    if (this.#session !== null) return { ok: true, sessionId: this.#sessionId, resumed: this.#resumed };
    if (this.#stopping)
      return { ok: false, code: 'exited', message: 'internal: this runtime adapter was stopped; build a new one' };
    this.#supervisor.reset();
    const res = await this.#launch(false);
    // issue 15: a start failure carries its reason (a missing command is `cli_missing`).
    if (!res.ok && res.reason === undefined) {
      const reason = classifyRuntimeFailure(res.message);
      return { ...res, reason: reason === 'cli_missing' || reason === 'auth_required' ? reason : 'cli_exited' };
    }
    return res;
  }

  /** The restart cap (issue 15: "Restarting (n of cap)"). */
  get restartCap(): number {
    return (this.#o.restartPolicy ?? DEFAULT_RESTART_POLICY).maxRestarts;
  }

  async deliver(text: string, due?: () => boolean): Promise<DeliverResult> {
    if (this.#session === null || this.#stopping)
      return {
        ok: false,
        code: 'not_running',
        message: `The ${this.driver.label} runtime is not running (starting or restarting); the delivery was not written.`,
      };
    return this.#queue.submit(text, due);
  }

  /**
   * Cancels the running turn (it ends `interrupted`). Deliveries waiting behind it are kept and
   * start after it (issue 38: an interrupt ends the stopped turn's wakes, never the next ones').
   */
  async interrupt(): Promise<void> {
    const session = this.#session;
    // Nothing accepted and nothing running: nothing to cancel.
    if (session === null || (!this.#turnOpen && !this.#queue.busy)) return;
    const res = await session.interrupt();
    if (!res.ok) this.#o.log?.warn('runtime interrupt failed', { runtime: this.runtime, message: res.message });
  }

  /**
   * issue 38: after an overflow, the session compacts natively once the overflowed turn ended —
   * ahead of every waiting delivery, which would overflow again — and `continuation` is written as
   * the next turn in the same session (it then holds the queue until its turn ends, as a prompt's
   * turn does). Resolves with the continuation's write, or why the compaction failed.
   */
  compact(continuation: string | null): Promise<DeliverResult> {
    const session = this.#session;
    if (session === null || this.#stopping || session.compact === undefined)
      return Promise.resolve({
        ok: false,
        code: 'not_running',
        message: `The ${this.driver.label} runtime cannot compact this session (not running).`,
      });
    // What the compaction and the write gave; null while the job has not run (a cleared queue answers then).
    let outcome: DeliverResult | null = null;
    return this.#queue
      .runFirst(async () => {
        if (this.#session !== session) {
          outcome = { ok: false, code: 'not_running', message: `The ${this.driver.label} process was replaced.` };
          return outcome;
        }
        const compacted = await (session.compact?.() ?? Promise.resolve({ ok: true as const }));
        if (!compacted.ok) outcome = { ok: false, code: 'write_failed', message: boundedDetail(compacted.message) };
        else outcome = continuation === null ? { ok: true } : await this.#submit(continuation);
        // Without a continuation no turn runs: the queue moves on (a refusal releases it).
        return continuation === null ? { ok: false, code: 'write_failed', message: 'nothing to write' } : outcome;
      })
      .then((queued) => outcome ?? queued);
  }

  /** Stops for good (the process group, a scheduled restart); events$ completes. Idempotent. */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#stopping = true;
    this.#restartTimer?.unsubscribe();
    this.#restartTimer = null;
    const proc = this.#proc;
    if (proc !== null && proc.exit === null) {
      this.#session?.close?.();
      await proc.stop();
      this.#forgetPidIfGone(proc);
    }
    this.#queue.clear({ ok: false, code: 'not_running', message: `The ${this.driver.label} runtime was stopped.` });
    this.#events.complete();
  }

  /** Start attempts; on a first start a stale `--resume` is retried fresh once (resumeAt `launch`). */
  async #launch(restart: boolean): Promise<StartResult> {
    const attempts = this.driver.startAttempts ?? 1;
    let staleRetried = restart;
    for (let attempt = 1; ; attempt += 1) {
      const { result, staleResume } = await this.#launchOnce();
      if (result.ok || result.code === 'spawn_failed' || this.#stopping) return result;
      if (staleResume && !staleRetried) {
        staleRetried = true;
        continue;
      }
      if (attempt >= attempts) return result;
    }
  }

  async #launchOnce(): Promise<{ result: StartResult; staleResume: boolean }> {
    const { driver: d, sessionStore, threadContractFingerprint: fingerprint, agentId, log } = this.#o;
    const generation = ++this.#generation;
    const stored = sessionStore.load();
    const resume = stored !== null && stored.fingerprint === fingerprint ? stored.sessionId : null;
    const failed = (
      code: 'spawn_failed' | 'start_timeout' | 'exited',
      message: string,
      staleResume = false,
      reason?: FailureReason,
    ) => ({
      result: { ok: false as const, code, message, ...(reason === undefined ? {} : { reason }) },
      staleResume,
    });
    const cannotStart = (command: string, err: unknown) =>
      failed(
        'spawn_failed',
        `Could not start "${command}" (${errorText(err)}). Set "command" of agent "${agentId}" in agentteam.json.`,
      );
    let spec: LaunchSpec;
    try {
      spec = await d.launch(resume);
    } catch (err) {
      return failed(
        'spawn_failed',
        `Could not prepare the ${d.label} runtime of agent "${agentId}": ${errorText(err)}`,
      );
    }
    if (this.#stopping) return failed('exited', `The ${d.label} runtime was stopped while starting.`);
    let proc: RuntimeProcess;
    try {
      const started = await this.#launcher.spawn({
        ...spec,
        env: this.#runtimeEnv(spec.env),
        stdinGraceMs: d.stdinGraceMs ?? 0,
        scheduler: this.#scheduler,
      });
      // issue 43: refused before any process ran (its host did not answer): the reason is the launcher's.
      if ('refused' in started) return failed('spawn_failed', started.refused, false, started.reason);
      proc = started;
    } catch (err) {
      return cannotStart(spec.command, err);
    }
    // A stop while a launcher prepared the start (issue 43: an SSH launch is asynchronous): nothing is left running.
    if (this.#stopping) {
      await proc.stop();
      return failed('exited', `The ${d.label} runtime was stopped while starting.`);
    }
    this.#proc = proc;
    this.#abandoned = false;
    this.#recordPid(proc, spec.command);
    log?.info(`${d.runtime} starting`, { agentId, generation, resume: resume !== null });
    void proc.exited.then((exit) => this.#onExit(generation, proc, exit));

    const connected = await this.#open(this.#context(generation, proc, resume), proc);
    // An exit that raced the session's opening is an exit before ready.
    const opening = typeof connected !== 'string' && connected.ok && proc.exit !== null ? 'exited' : connected;
    if (typeof opening !== 'string' && opening.ok && !this.#stopping) {
      this.#session = opening.session;
      this.#sessionId = opening.sessionId;
      this.#resumed = opening.resumed;
      const id = opening.sessionId;
      if (id !== null && !(stored?.sessionId === id && stored.fingerprint === fingerprint))
        sessionStore.save({ sessionId: id, fingerprint });
      this.#events.emit(generation, { type: 'ready', sessionId: id, resumed: opening.resumed });
      return { result: { ok: true, sessionId: id, resumed: opening.resumed }, staleResume: false };
    }
    if (proc.exit === null) {
      this.#abandoned = true;
      proc.kill('SIGKILL');
      await proc.stop();
    }
    if (proc.spawnError !== null) return cannotStart(spec.command, proc.spawnError);
    // A resume flag naming a stale session (transcript gone) fails the start: forget it.
    const staleResume = d.resumeAt === 'launch' && resume !== null;
    if (staleResume) sessionStore.clear();
    const exit = proc.exit as ProcessExit;
    const [code, message] =
      opening === 'timeout'
        ? (['start_timeout', d.timeoutMessage(d.startTimeoutMs)] as const)
        : opening === 'exited'
          ? (['exited', `${d.label} exited (code ${exit.code}, signal ${exit.signal}) before it was ready`] as const)
          : (['exited', opening.ok ? `The ${d.label} runtime was stopped while starting.` : opening.message] as const);
    const stderr = stderrSummary(proc.stderrTail);
    // issue 43: an exit the launcher explains (the SSH connection's) is that, not the CLI's.
    const known = opening === 'exited' ? this.#launcher.exitFailure(exit, proc.stderrTail) : null;
    if (known !== null) return failed('exited', known.detail, false, known.reason);
    return failed(
      code,
      `${message}${stderr ? ` (${d.label} stderr: ${stderr})` : ''}`,
      staleResume && code === 'exited',
    );
  }

  /** The driver's connect, raced against the start timeout and the process's exit. */
  #open(ctx: DriverContext, proc: RuntimeProcess): Promise<Opening> {
    const connect = this.driver
      .connect(ctx)
      .catch((err: unknown): ConnectResult => ({ ok: false, message: `internal: ${errorText(err)}` }));
    return firstValueFrom(
      race(
        from(connect),
        timer(this.driver.startTimeoutMs, this.#scheduler).pipe(map(() => 'timeout' as const)),
        from(proc.exited).pipe(map(() => 'exited' as const)),
      ),
    );
  }

  /** The driver's env, the agent-tools env on top, and `agentteam` first on PATH (issue 14). */
  #runtimeEnv(env: Readonly<Record<string, string>>): Record<string, string> {
    const merged = { ...env, ...this.#o.agentEnv };
    const cli = this.#o.agentCli;
    return cli === undefined ? merged : withDirOnPath(merged, cli.dir);
  }

  #context(generation: number, proc: RuntimeProcess, resume: string | null): DriverContext {
    return {
      generation,
      process: proc,
      resumeSessionId: resume,
      scheduler: this.#scheduler,
      log: this.#o.log,
      emit: (e) => this.#onDriverEvent(generation, e),
      delay: (ms) => firstValueFrom(timer(ms, this.#scheduler)).then(() => undefined),
      askInTurn: (answer) => this.#askInTurn(generation, answer),
      // issue 14: the host (agent session → approval service) answers; no host → a deny the agent reads.
      askApproval: (ask) => {
        // issue 14 "Our MCP tools never need approval": nor does their CLI rendering, when the
        // command is exactly `agentteam agent send|react …` (agent-cli-command.ts); anything else asks.
        if (ask.kind === 'command' && isAgentToolsCommand(ask.summary)) {
          if (this.#o.agentCli?.trusted() === true) {
            this.#o.log?.info('approval: own agent-tools command allowed', { agentId: this.#o.agentId });
            return Promise.resolve(OWN_AGENT_TOOLS);
          }
          // Not our shim, or what it runs could have been edited by the agent: the operator decides.
          this.#o.log?.warn(
            'approval: agentteam is not the shim AgentTeam wrote (or runs files in the workspace); asking',
            { agentId: this.#o.agentId },
          );
        }
        // Never leave the CLI waiting on a question nobody can answer: a deny it can read.
        return askApprovalHost(this.#o.host.requestApproval, ask, (error) =>
          this.#o.log?.error('approval request failed', { agentId: this.#o.agentId, error }),
        );
      },
    };
  }

  #onDriverEvent(generation: number, e: DriverEvent): void {
    // Before ready nothing was delivered: an early event (a failed `--resume`'s result) is no turn.
    if (generation !== this.#generation || this.#session === null) return;
    switch (e.type) {
      case 'session':
        // The session exists once a turn starts: remember it with the fingerprint it was created under.
        if (e.sessionId === this.#sessionId) return;
        this.#sessionId = e.sessionId;
        this.#o.sessionStore.save({ sessionId: e.sessionId, fingerprint: this.#o.threadContractFingerprint });
        return;
      case 'turn_started':
        this.#asked = false;
        this.#checks = 0;
        if (this.#turnOpen) return;
        this.#turnOpen = true;
        this.#events.emit(generation, { type: 'turn_start', sessionId: this.#sessionId });
        return;
      case 'tool_call':
        this.#events.emit(generation, { type: 'tool_call', name: e.name });
        return;
      case 'local_text':
        // contract §6.5: the text stops here; only its counts travel.
        if (e.text !== '') this.#events.emit(generation, { type: 'local_text', ...textMetrics(e.text) });
        return;
      case 'turn_ended':
        void this.#onTurnEnded(generation, e.outcome, e.error, e.reason);
        return;
      case 'operator_wait':
        // issue 14: the runtime's own liveness signal; the host pauses the silence clock with it.
        this.#events.emit(generation, { type: 'operator_wait', waiting: e.waiting });
        return;
      case 'usage':
      case 'limit_window':
        // issue 27: the runtime's own report, passed on unchanged (the host stores it).
        this.#events.emit(generation, e);
        return;
      case 'context_compacted':
        // issue 24: a continuation of the same turn; the host only notes it on the wakes' timelines.
        this.#events.emit(generation, { type: 'context_compacted' });
        return;
      case 'input_dropped':
        // issue 29: reported, never fatal: the line is gone, the runtime keeps running.
        this.#o.log?.warn('runtime output line over the cap dropped', {
          runtime: this.runtime,
          chars: e.chars,
          limit: e.limit,
        });
        this.#events.emit(generation, { type: 'input_dropped', chars: e.chars, limit: e.limit });
        return;
      case 'context_overflow':
        // issue 16, 38: the host decides: a compaction continuation here (`compact`) where the
        // session can compact, else it recovers what the runtime had been shown (contract §6.6).
        this.#events.emit(generation, { type: 'context_overflow', canCompact: this.#session.compact !== undefined });
        return;
      case 'process_unusable':
        // Replaced as after a crash (the exit below): an open turn fails with this detail and is recovered.
        if (this.#unusable !== null) return;
        this.#unusable = boundedDetail(e.detail);
        this.#o.log?.warn('runtime process unusable; replacing it', {
          agentId: this.#o.agentId,
          runtime: this.runtime,
          detail: this.#unusable,
        });
        this.#proc?.kill('SIGKILL');
        return;
    }
  }

  async #onTurnEnded(
    g: number,
    outcome: 'completed' | 'failed' | 'interrupted',
    error: string | null,
    reason?: FailureReason,
  ): Promise<void> {
    const d = this.driver;
    if (outcome === 'failed') {
      const detail = boundedDetail(error ?? `the ${d.label} turn failed`);
      this.#events.emit(g, { type: 'runtime_error', detail, reason: reason ?? classifyRuntimeFailure(detail) });
    }
    if (outcome !== 'completed' || (d.finalCheck === 'in_turn' && this.#asked)) {
      this.#endTurn(g, outcome === 'failed' ? 'error' : outcome);
      this.#queue.turnEnded();
      return;
    }
    // `in_turn` whose runtime never asked (no Stop hook this turn): the check becomes its own turn.
    if (d.finalCheck === 'in_turn') this.#endTurn(g, 'completed');
    this.#asked = true;
    // The queue stays held while the host decides, so a waiting delivery cannot overtake the check.
    const text = await this.#askHost(g, 'user_message');
    if (text === null) {
      this.#endTurn(g, 'completed');
      this.#queue.turnEnded();
      return;
    }
    const submitted = this.#queue.submitFirst(text);
    this.#queue.turnEnded();
    const res = await submitted;
    this.#events.emit(g, {
      type: 'final_check',
      outcome: res.ok ? 'injected' : 'failed',
      via: 'user_message',
      detail: res.ok ? null : boundedDetail(res.message),
    });
    // `next_turn`: the final-check turn continues the logical turn; its end asks the host again.
    if (!res.ok) this.#endTurn(g, 'completed');
  }

  async #askInTurn(g: number, answer: (finalCheck: string | null) => Promise<boolean>): Promise<void> {
    this.#asked = true;
    let text = await this.#askHost(g, 'stop_hook');
    if (text !== null && this.#checks >= MAX_IN_TURN_CHECKS) {
      this.#events.emit(g, {
        type: 'final_check',
        outcome: 'failed',
        via: 'stop_hook',
        detail: `more than ${MAX_IN_TURN_CHECKS} final-checks in one turn; the turn is allowed to end`,
      });
      text = null;
    }
    if (text !== null) this.#checks += 1;
    const wrote = await answer(text);
    if (text !== null)
      this.#events.emit(g, {
        type: 'final_check',
        outcome: wrote ? 'injected' : 'failed',
        via: 'stop_hook',
        detail: wrote ? null : `the ${this.driver.label} process stopped before the final-check was written`,
      });
  }

  /** The host alone decides (contract §6.4); a host error lets the turn end. */
  async #askHost(g: number, via: 'stop_hook' | 'user_message'): Promise<string | null> {
    try {
      return await this.#o.host.onTurnBoundary();
    } catch (err) {
      this.#events.emit(g, {
        type: 'final_check',
        outcome: 'failed',
        via,
        detail: boundedDetail(`host error: ${errorText(err)}`),
      });
      return null;
    }
  }

  #endTurn(g: number, outcome: 'completed' | 'error' | 'interrupted'): void {
    if (!this.#turnOpen) return;
    this.#turnOpen = false;
    this.#events.emit(g, { type: 'turn_end', outcome });
  }

  async #submit(text: string): Promise<DeliverResult> {
    const session = this.#session;
    if (session === null)
      return { ok: false, code: 'not_running', message: `The ${this.driver.label} runtime is not running.` };
    const res = await session.submit(text);
    return res.ok ? { ok: true } : { ok: false, code: 'write_failed', message: res.message };
  }

  /** issue 16 "No orphans": on disk while the process group may run, so a killed daemon's successor can end it. */
  #recordPid(proc: RuntimeProcess, command: string): void {
    const pid = proc.pid;
    const pids = this.#o.pids;
    if (pid === null || pids === undefined) return;
    try {
      pids.record(pid, { agentId: this.#o.agentId, command });
    } catch (err) {
      this.#o.log?.warn('could not record a runtime pid', { agentId: this.#o.agentId, pid, error: errorText(err) });
    }
    // Forgotten once nothing of the group runs; children that outlived the leader keep it recorded.
    void proc.exited.then(() => proc.stderrEnded).then(() => this.#forgetPidIfGone(proc));
  }

  #forgetPidIfGone(proc: RuntimeProcess): void {
    if (proc.pid !== null && !proc.groupAlive()) this.#o.pids?.forget(proc.pid);
  }

  #onExit(generation: number, proc: RuntimeProcess, exit: ProcessExit): void {
    if (proc !== this.#proc) return;
    const { agentId, log } = this.#o;
    const expected = this.#stopping || this.#abandoned;
    const wasReady = this.#session !== null;
    this.#session?.close?.();
    this.#session = null;
    this.#queue.clear({
      ok: false,
      code: 'not_running',
      message: `The ${this.driver.label} runtime exited before this delivery could be written.`,
    });
    const unusable = this.#unusable;
    this.#unusable = null;
    // issue 43: a dropped SSH connection is a runtime exit whose reason is the connection's.
    const known = unusable === null ? this.#launcher.exitFailure(exit, proc.stderrTail) : null;
    if (this.#turnOpen && !expected)
      this.#events.emit(generation, {
        type: 'runtime_error',
        detail:
          unusable ??
          known?.detail ??
          boundedDetail(`${this.driver.label} exited during a turn (code ${exit.code}, signal ${exit.signal})`),
        reason: known?.reason ?? 'cli_exited',
      });
    this.#turnOpen = false;
    this.#events.emit(generation, { type: 'exit', code: exit.code, signal: exit.signal, expected });
    log?.info(`${this.runtime} exited`, { agentId, generation, code: exit.code, signal: exit.signal, expected });
    // A start that fails is reported by its start (or its restart attempt), not restarted from here.
    if (!expected && wasReady) this.#scheduleRestart(generation);
  }

  /** `refused`: the last restart's start was refused for a reason of the launcher's (issue 43: its host). */
  #scheduleRestart(generation: number, refused: { reason: FailureReason; detail: string } | null = null): void {
    const decision = this.#supervisor.onCrash(this.#scheduler.now());
    if (!decision.restart) {
      this.#o.log?.error('runtime restart cap reached', {
        agentId: this.#o.agentId,
        runtime: this.runtime,
        restarts: decision.restarts,
      });
      this.#events.emit(generation, { type: 'gave_up', restarts: decision.restarts, ...(refused ?? {}) });
      return;
    }
    this.#events.emit(generation, { type: 'restart_scheduled', attempt: decision.attempt, delayMs: decision.delayMs });
    this.#restartTimer = timer(decision.delayMs, this.#scheduler).subscribe(() => {
      this.#restartTimer = null;
      if (this.#stopping) return;
      // A restart that dies before ready (e.g. a stale `--resume`, forgotten above) is retried
      // until the supervisor's cap (gave_up): never left down without a word.
      void this.#launch(true).then((res) => {
        if (!res.ok && !this.#stopping)
          this.#scheduleRestart(
            this.#generation,
            res.reason === undefined ? null : { reason: res.reason, detail: res.message },
          );
      });
    });
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The last stderr lines, bounded: a hint for a person, never a message. */
function stderrSummary(tail: string): string {
  return boundedDetail(
    tail
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(-3)
      .join(' | '),
    200,
  );
}
