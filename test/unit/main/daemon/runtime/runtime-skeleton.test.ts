/**
 * The shared runtime skeleton against a scripted driver: the process is a real `cat` (its own
 * process group, stopped by closing stdin), the wire is scripted, and restart delays run on a
 * virtual-time scheduler. The real CLIs are covered by test/conformance/runtimes.
 */
import { readFileSync } from 'node:fs';
import { VirtualTimeScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEventEnvelope } from '../../../../../main/daemon/runtime/runtime-adapter.js';
import type { DriverContext, DriverEvent, WireResult } from '../../../../../main/daemon/runtime/driver-session.js';
import type { ConnectResult, LaunchSpec, RuntimeDriver } from '../../../../../main/daemon/runtime/runtime-driver.js';
import {
  memorySessionStore,
  type RuntimeSessionStore,
} from '../../../../../main/daemon/runtime/runtime-session-store.js';
import { RuntimeSkeleton } from '../../../../../main/daemon/runtime/runtime-skeleton.js';
import { LOCAL_LAUNCHER, type ProcessLauncher } from '../../../../../main/daemon/runtime/process-launcher.js';
import type { ApprovalAnswer, ApprovalAsk } from '../../../../../main/daemon/runtime/approval-port.js';
import { RuntimeEventRecorder } from '../../../../fixtures/runtime-event-recorder.js';

class ScriptedDriver implements RuntimeDriver {
  readonly runtime = 'opencode' as const;
  readonly label = 'Scripted';
  readonly resumeAt = 'open' as const;
  readonly startTimeoutMs = 5_000;
  /** `cat` ends cleanly on EOF. */
  readonly stdinGraceMs = 1_000;
  readonly submitted: string[] = [];
  readonly resumes: Array<string | null> = [];
  ctx: DriverContext | null = null;
  refuse = false;
  hang = false;
  interrupts = 0;

  constructor(readonly finalCheck: 'in_turn' | 'next_turn') {}

  async launch(): Promise<LaunchSpec> {
    return { command: 'cat', args: [], env: { PATH: process.env.PATH ?? '' }, cwd: process.cwd() };
  }

  async connect(ctx: DriverContext): Promise<ConnectResult> {
    this.ctx = ctx;
    this.resumes.push(ctx.resumeSessionId);
    // A real wire answers only once the process runs (a spawn failure shows first).
    await flush();
    if (this.hang) return new Promise<never>(() => undefined);
    const session = {
      submit: async (text: string): Promise<WireResult> => {
        this.submitted.push(text);
        return this.refuse ? { ok: false, message: 'gone' } : { ok: true };
      },
      interrupt: async (): Promise<WireResult> => {
        this.interrupts += 1;
        return { ok: true };
      },
    };
    const sessionId = ctx.resumeSessionId ?? `ses-${ctx.generation}`;
    return { ok: true, session, sessionId, resumed: ctx.resumeSessionId !== null };
  }

  timeoutMessage(): string {
    return 'scripted: no session';
  }

  emit(...events: DriverEvent[]): void {
    for (const e of events) this.ctx?.emit(e);
  }

  turn(outcome: 'completed' | 'failed' | 'interrupted' = 'completed', error: string | null = null): void {
    this.emit({ type: 'turn_started' }, { type: 'turn_ended', outcome, error });
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const adapters: RuntimeSkeleton[] = [];

afterEach(async () => {
  await Promise.all(adapters.splice(0).map((a) => a.stop()));
});

function setup(
  finalChecks: Array<string | null>,
  mode: 'in_turn' | 'next_turn' = 'next_turn',
  sessionStore: RuntimeSessionStore = memorySessionStore(),
  extra: {
    readonly agentCli?: { readonly dir: string; trusted(): boolean };
    readonly launcher?: ProcessLauncher;
  } = {},
) {
  const driver = new ScriptedDriver(mode);
  const scheduler = new VirtualTimeScheduler();
  const answers = [...finalChecks];
  const host = {
    calls: 0,
    asked: [] as ApprovalAsk[],
    async onTurnBoundary() {
      host.calls += 1;
      return answers.shift() ?? null;
    },
    async requestApproval(ask: ApprovalAsk): Promise<ApprovalAnswer> {
      host.asked.push(ask);
      return { decision: 'deny', scope: 'once', status: 'denied', reason: 'no' };
    },
  };
  const adapter = new RuntimeSkeleton({
    agentId: 'a1',
    driver,
    host,
    threadContractFingerprint: 'fp-1',
    sessionStore,
    scheduler,
    restartPolicy: { baseDelayMs: 100, maxDelayMs: 100, maxRestarts: 1, windowMs: 60_000 },
    agentEnv: { AGENTTEAM_MCP_URL: 'http://127.0.0.1:1/mcp' },
    ...extra,
  });
  adapters.push(adapter);
  const rec = new RuntimeEventRecorder(adapter.events$);
  const kill = () => process.kill(driver.ctx?.process.pid ?? 0, 'SIGKILL');
  return { driver, adapter, rec, host, scheduler, kill, events: rec.events as RuntimeEventEnvelope[] };
}

describe('RuntimeSkeleton: the one adapter shape every CLI runtime is built from', () => {
  it('next_turn: a delivery turn and its final-check turn are one logical turn (one turn_start, one turn_end)', async () => {
    const s = setup(['FINAL-CHECK x', null]);
    expect(await s.adapter.start()).toEqual({ ok: true, sessionId: 'ses-1', resumed: false });
    expect(await s.adapter.deliver('hello')).toEqual({ ok: true });
    s.driver.turn();
    await s.rec.waitFor((e) => e.type === 'final_check');
    expect(s.driver.submitted).toEqual(['hello', 'FINAL-CHECK x']);
    s.driver.turn();
    await s.rec.waitFor((e) => e.type === 'turn_end');
    expect(s.rec.types()).toEqual(['ready', 'turn_start', 'final_check:injected', 'turn_end:completed']);
    expect(s.events.find((e) => e.type === 'final_check')).toMatchObject({ via: 'user_message', generation: 1 });
    expect(s.host.calls).toBe(2);
  });

  it('a final-check goes ahead of a delivery that waited during the turn (contract §8.3)', async () => {
    const s = setup(['FINAL-CHECK x', null, null]);
    await s.adapter.start();
    await s.adapter.deliver('first');
    const second = s.adapter.deliver('second');
    s.driver.turn();
    await s.rec.waitFor((e) => e.type === 'final_check');
    expect(s.driver.submitted).toEqual(['first', 'FINAL-CHECK x']);
    s.driver.turn();
    expect(await second).toEqual({ ok: true });
    expect(s.driver.submitted).toEqual(['first', 'FINAL-CHECK x', 'second']);
  });

  it('local text travels as counts only, never as text; tool calls by name', async () => {
    const s = setup([]);
    await s.adapter.start();
    s.driver.emit(
      { type: 'turn_started' },
      { type: 'local_text', text: 'héllo' },
      { type: 'tool_call', name: 'agentteam_message_send' },
    );
    expect(s.events.slice(1)).toEqual([
      { type: 'turn_start', sessionId: 'ses-1', generation: 1 },
      { type: 'local_text', bytes: 6, runes: 5, generation: 1 },
      { type: 'tool_call', name: 'agentteam_message_send', generation: 1 },
    ]);
    expect(JSON.stringify(s.events)).not.toContain('héllo');
  });

  it('a failed turn is a bounded runtime_error then turn_end error; a refused final-check ends the turn', async () => {
    const s = setup(['FINAL-CHECK y']);
    await s.adapter.start();
    s.driver.turn('failed', `fake: scripted 400 ${'x'.repeat(1000)}`);
    await s.rec.waitFor((e) => e.type === 'turn_end');
    expect(s.rec.types()).toEqual(['ready', 'turn_start', 'runtime_error', 'turn_end:error']);
    const error = s.events.find((e) => e.type === 'runtime_error');
    expect(error?.type === 'runtime_error' && error.detail.length).toBe(300);
    s.driver.refuse = true;
    const from = s.rec.mark;
    s.driver.turn();
    await s.rec.waitFor((e) => e.type === 'turn_end', from);
    expect(s.rec.types(from)).toEqual(['turn_start', 'final_check:failed', 'turn_end:completed']);
    expect(s.events.at(-2)).toMatchObject({ detail: 'gone' });
  });

  it('in_turn: the runtime asks at its boundary, the answer goes back into the same turn, at most 3 per turn', async () => {
    const s = setup(['check 1', 'check 2', 'check 3', 'check 4'], 'in_turn');
    await s.adapter.start();
    s.driver.emit({ type: 'turn_started' });
    const answers: Array<string | null> = [];
    for (let i = 0; i < 4; i += 1)
      await s.driver.ctx?.askInTurn(async (text) => {
        answers.push(text);
        return true;
      });
    s.driver.emit({ type: 'turn_ended', outcome: 'completed', error: null });
    await s.rec.waitFor((e) => e.type === 'turn_end');
    expect(answers).toEqual(['check 1', 'check 2', 'check 3', null]);
    expect(s.rec.types()).toEqual([
      'ready',
      'turn_start',
      'final_check:injected',
      'final_check:injected',
      'final_check:injected',
      'final_check:failed',
      'turn_end:completed',
    ]);
    // Asked in the turn: the completed turn end does not ask again.
    expect(s.host.calls).toBe(4);
  });

  it('in_turn without the runtime asking: the turn ends, then the final-check is its own turn', async () => {
    const s = setup(['FINAL-CHECK z', null], 'in_turn');
    await s.adapter.start();
    await s.adapter.deliver('hello');
    s.driver.turn();
    await s.rec.waitFor((e) => e.type === 'final_check');
    s.driver.turn();
    await s.rec.waitFor((e) => e.type === 'turn_end', 4);
    expect(s.rec.types()).toEqual([
      'ready',
      'turn_start',
      'turn_end:completed',
      'final_check:injected',
      'turn_start',
      'turn_end:completed',
    ]);
    expect(s.driver.submitted).toEqual(['hello', 'FINAL-CHECK z']);
  });

  it('a crash mid-turn → runtime_error, exit, restart after the backoff resuming the session, then gave_up at the cap', async () => {
    const store = memorySessionStore();
    const s = setup([], 'next_turn', store);
    await s.adapter.start();
    expect(store.load()).toEqual({ sessionId: 'ses-1', fingerprint: 'fp-1' });
    s.driver.emit({ type: 'turn_started' });
    s.kill();
    await s.rec.waitFor((e) => e.type === 'restart_scheduled');
    expect(s.rec.types().slice(-3)).toEqual(['runtime_error', 'exit', 'restart_scheduled']);
    expect(s.events.at(-2)).toMatchObject({ signal: 'SIGKILL', expected: false, generation: 1 });
    s.scheduler.flush();
    const ready = await s.rec.waitFor((e) => e.type === 'ready' && e.generation === 2);
    expect(ready).toMatchObject({ sessionId: 'ses-1', resumed: true });
    expect(s.driver.resumes).toEqual([null, 'ses-1']);
    s.kill();
    expect(await s.rec.waitFor((e) => e.type === 'gave_up')).toMatchObject({ restarts: 1, generation: 2 });
  });

  it('issue 43: restarts its launcher refuses (the host did not answer) end in gave_up with the launcher’s reason and sentence', async () => {
    let spawns = 0;
    const launcher: ProcessLauncher = {
      spawn: (o) => {
        spawns += 1;
        return spawns === 1
          ? LOCAL_LAUNCHER.spawn(o)
          : Promise.resolve({ refused: 'box did not answer over SSH', reason: 'host_unreachable' });
      },
      exitFailure: () => null,
    };
    const s = setup([], 'next_turn', memorySessionStore(), { launcher });
    await s.adapter.start();
    s.kill();
    await s.rec.waitFor((e) => e.type === 'restart_scheduled');
    s.scheduler.flush();
    expect(await s.rec.waitFor((e) => e.type === 'gave_up')).toMatchObject({
      restarts: 1,
      reason: 'host_unreachable',
      detail: 'box did not answer over SSH',
    });
    expect(spawns).toBe(2);
  });

  it('process_unusable: the process is replaced as after a crash; the open turn fails cli_exited with the driver’s detail; the new one resumes', async () => {
    const s = setup([], 'next_turn');
    await s.adapter.start();
    s.driver.emit({ type: 'turn_started' });
    s.driver.emit({ type: 'process_unusable', detail: 'the session stopped taking prompts' });
    // Repeated reports of the same process kill it once.
    s.driver.emit({ type: 'process_unusable', detail: 'again' });
    await s.rec.waitFor((e) => e.type === 'restart_scheduled');
    expect(s.rec.types().slice(-3)).toEqual(['runtime_error', 'exit', 'restart_scheduled']);
    expect(s.events.at(-3)).toMatchObject({
      type: 'runtime_error',
      detail: 'the session stopped taking prompts',
      reason: 'cli_exited',
    });
    expect(s.events.at(-2)).toMatchObject({ signal: 'SIGKILL', expected: false, generation: 1 });
    s.scheduler.flush();
    expect(await s.rec.waitFor((e) => e.type === 'ready' && e.generation === 2)).toMatchObject({ resumed: true });
    // The next crash of the new process is an ordinary one again.
    s.driver.emit({ type: 'turn_started' });
    s.kill();
    await s.rec.waitFor((e) => e.type === 'gave_up');
    expect(s.events.filter((e) => e.type === 'runtime_error').at(-1)).toMatchObject({
      detail: expect.stringContaining('exited during a turn'),
    });
  });

  it('a stored session of another thread contract is not resumed', async () => {
    const store = memorySessionStore({ sessionId: 'old', fingerprint: 'fp-0' });
    const s = setup([], 'next_turn', store);
    expect(await s.adapter.start()).toMatchObject({ ok: true, sessionId: 'ses-1', resumed: false });
    expect(s.driver.resumes).toEqual([null]);
    expect(store.load()).toEqual({ sessionId: 'ses-1', fingerprint: 'fp-1' });
  });

  it('stop cancels a scheduled restart, exits expected and completes the stream', async () => {
    const s = setup([]);
    await s.adapter.start();
    s.kill();
    await s.rec.waitFor((e) => e.type === 'restart_scheduled');
    await s.adapter.stop();
    s.scheduler.flush();
    await flush();
    expect(s.driver.resumes).toHaveLength(1);
    expect(await s.adapter.deliver('late')).toMatchObject({ ok: false, code: 'not_running' });
  });

  it('stop ends the process (clean exit on stdin close), reports it expected, and is idempotent', async () => {
    const s = setup([]);
    await s.adapter.start();
    const pid = s.adapter.pid;
    expect(pid).not.toBeNull();
    await Promise.all([s.adapter.stop(), s.adapter.stop()]);
    expect(s.rec.types()).toEqual(['ready', 'exit']);
    expect(s.events.at(-1)).toMatchObject({ code: 0, expected: true });
    expect(s.adapter.processGroupAlive()).toBe(false);
  });

  it('a session that does not open in time is a start_timeout; its process is killed, not restarted', async () => {
    const s = setup([]);
    s.driver.hang = true;
    const started = s.adapter.start();
    await flush();
    s.scheduler.flush();
    expect(await started).toMatchObject({ ok: false, code: 'start_timeout', message: 'scripted: no session' });
    expect(s.rec.types()).toEqual(['exit']);
    expect(s.events[0]).toMatchObject({ signal: 'SIGKILL', expected: true });
  });

  it('a missing command is a spawn_failed start with an actionable message, not a throw', async () => {
    const s = setup([]);
    s.driver.launch = async () => ({ command: '/nonexistent/agentteam-cli', args: [], env: {}, cwd: process.cwd() });
    const res = await s.adapter.start();
    expect(res).toMatchObject({ ok: false, code: 'spawn_failed' });
    expect(!res.ok && res.message).toMatch(/Set "command" of agent "a1"/);
  });

  it('interrupt ends the running turn only: a waiting delivery starts after it (issue 38); the driver is asked only while a turn runs', async () => {
    const s = setup([]);
    await s.adapter.start();
    await s.adapter.interrupt();
    expect(s.driver.interrupts).toBe(0);
    await s.adapter.deliver('running');
    const waiting = s.adapter.deliver('waiting');
    s.driver.emit({ type: 'turn_started' });
    await s.adapter.interrupt();
    expect(s.driver.interrupts).toBe(1);
    expect(s.driver.submitted).toEqual(['running']);
    s.driver.emit({ type: 'turn_ended', outcome: 'interrupted', error: null });
    expect(s.rec.types()).toContain('turn_end:interrupted');
    expect(s.rec.types()).not.toContain('runtime_error');
    // The delivery queued behind the stopped turn is written after it, in its own turn.
    expect(await waiting).toEqual({ ok: true });
    expect(s.driver.submitted).toEqual(['running', 'waiting']);
  });
});

describe("RuntimeSkeleton: the agent-tools CLI and the runtime's own liveness (issue 14)", () => {
  it.skipIf(process.platform !== 'linux')(
    'puts the agentteam shim folder first on the runtime’s PATH, next to the agent-tools env',
    async () => {
      const s = setup([], 'next_turn', memorySessionStore(), {
        agentCli: { dir: '/data dir/bin', trusted: () => true },
      });
      await s.adapter.start();
      const environ = readFileSync(`/proc/${s.adapter.pid}/environ`, 'utf8').split('\0');
      expect(environ).toContain(`PATH=/data dir/bin:${process.env.PATH ?? ''}`);
      expect(environ).toContain('AGENTTEAM_MCP_URL=http://127.0.0.1:1/mcp');
    },
  );

  it('an exact `agentteam agent send` is allowed without asking while the shim is trusted; anything else goes to the host', async () => {
    let trusted = true;
    const s = setup([], 'next_turn', memorySessionStore(), { agentCli: { dir: '/d/bin', trusted: () => trusted } });
    await s.adapter.start();
    const ask = (command: string): ApprovalAsk => ({
      kind: 'command',
      tool: 'Bash',
      summary: command,
      detail: command,
      rule: `Bash(${command})`,
    });
    const own = "agentteam agent send --target '#general' --content 'done'";
    expect(await s.driver.ctx?.askApproval(ask(own))).toMatchObject({ decision: 'allow', status: 'allowed' });
    expect(s.host.asked).toEqual([]);
    expect(await s.driver.ctx?.askApproval(ask(`${own}; rm -rf x`))).toMatchObject({ decision: 'deny' });
    // A file change named like the command is not a command.
    await s.driver.ctx?.askApproval({ ...ask(own), kind: 'file_change' });
    // The shim was changed (or runs files in the workspace): the same command asks.
    trusted = false;
    await s.driver.ctx?.askApproval(ask(own));
    expect(s.host.asked.map((a) => a.kind)).toEqual(['command', 'file_change', 'command']);
  });

  it("without the daemon's shim, `agentteam` on PATH is not ours: the command asks", async () => {
    const s = setup([]);
    await s.adapter.start();
    const own = "agentteam agent send --target '#general' --content 'done'";
    await s.driver.ctx?.askApproval({ kind: 'command', tool: 'Bash', summary: own, detail: own, rule: `Bash(${own})` });
    expect(s.host.asked).toHaveLength(1);
  });

  it("the runtime's operator_wait travels to the host as it came", async () => {
    const s = setup([]);
    await s.adapter.start();
    s.driver.emit(
      { type: 'turn_started' },
      { type: 'operator_wait', waiting: true },
      { type: 'operator_wait', waiting: false },
    );
    expect(s.events.slice(2)).toEqual([
      { type: 'operator_wait', waiting: true, generation: 1 },
      { type: 'operator_wait', waiting: false, generation: 1 },
    ]);
  });
});
