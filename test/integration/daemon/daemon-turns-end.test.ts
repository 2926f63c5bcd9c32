/**
 * issue 29 "Turns end", through the assembled daemon with the demo runtime: a turn that does not
 * end (`/slow` with a task far longer than the test) is stopped by the operator (`agents.stop`,
 * the call the chip, `agentteam stop` and Telegram make) or by its `turnTimeoutMinutes` deadline
 * (virtual time: the deadline's scheduler is the test's); the wake ends `failed` with the reason,
 * and the agent takes the next message.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualTimeScheduler, filter, firstValueFrom, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type Agent, type ApiEvent, type Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import type {
  DeliverResult,
  RuntimeAdapter,
  RuntimeEventEnvelope,
  StartResult,
} from '../../../main/daemon/runtime/runtime-adapter.js';
import { Subject } from 'rxjs';
import { readyProbe } from '../../fixtures/ready-probe.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];

afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function start(options: { clock?: VirtualTimeScheduler; turnTimeoutMinutes?: number } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-turns-end-'));
  dirs.push(dir);
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [
        {
          id: 'demo',
          name: 'Demo',
          runtime: 'demo',
          // A quiet task far longer than any test: the turn never ends by itself.
          env: { DEMO_TASK_MS: String(3_600_000) },
          // Never put to sleep (issue 42): the deadline test counts what is left on the clock.
          resources: { idleSleepSeconds: 0 },
          ...(options.turnTimeoutMinutes === undefined ? {} : { turnTimeoutMinutes: options.turnTimeoutMinutes }),
        },
      ],
    }),
  );
  const daemon = await createDaemon({
    dataDir: dir,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  daemons.push(daemon);
  return daemon;
}

const agentState = (events$: Observable<ApiEvent>, state: Agent['state']) =>
  firstValueFrom(
    events$.pipe(
      filter(
        (e): e is Extract<ApiEvent, { name: 'agent.updated' }> =>
          e.name === 'agent.updated' && e.payload.id === 'demo' && e.payload.state === state,
      ),
    ),
  );

/**
 * Every terminal wake from now on, by token: `done(token)` resolves with it even when it ended
 * before the token was known (the send's answer waits for the WAL sync; a quick demo turn can end
 * within it).
 */
function terminalWakes(events$: Observable<ApiEvent>): (wakeToken: string) => Promise<Wake> {
  const ended = new Map<string, Wake>();
  const waiting = new Map<string, (w: Wake) => void>();
  events$.subscribe((e) => {
    if (e.name !== 'wake.status' || !isTerminal(e.payload.status) || ended.has(e.payload.wakeToken)) return;
    ended.set(e.payload.wakeToken, e.payload);
    waiting.get(e.payload.wakeToken)?.(e.payload);
  });
  return (wakeToken) =>
    new Promise<Wake>((resolve) => {
      const w = ended.get(wakeToken);
      if (w !== undefined) resolve(w);
      else waiting.set(wakeToken, resolve);
    });
}

/** Sends `content` to #general and resolves with its wake's token and its terminal wake. */
async function send(daemon: Daemon, content: string) {
  const done = terminalWakes(daemon.events$);
  const sent = await daemon.api['messages.send']({ target: '#general', content });
  const wake = (await daemon.api['wakes.list']({ target: '#general' })).find((w) => w.messageId === sent.messageId);
  const token = wake?.wakeToken ?? '';
  expect(token).not.toBe('');
  return { token, done: done(token) };
}

async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('issue 29: a working turn ends with a reason', () => {
  it('Stop (agents.stop) ends the turn at once: failed / stopped_by_operator; the agent takes the next message', async () => {
    const daemon = await start();
    const busy = agentState(daemon.events$, 'busy');
    const slow = await send(daemon, '@demo /slow');
    await busy;
    const stopped = await daemon.api['agents.stop']({ agentId: 'demo' });
    expect(stopped.id).toBe('demo');
    const wake = await slow.done;
    expect(wake).toMatchObject({ status: 'failed', reason: 'stopped_by_operator' });
    expect(wake.detail).toBe('the operator stopped the turn');

    const next = await send(daemon, '@demo hello again');
    expect((await next.done).status).toBe('reply_sent');
  });

  it('Stop of an agent with no working turn is refused, naming it; an unknown agent too', async () => {
    const daemon = await start();
    await daemon.api['agents.check']({ agentId: 'demo' });
    const idle = await refusal(daemon.api['agents.stop']({ agentId: 'demo' }));
    expect(idle.code).toBe('not_working');
    expect(idle.message).toBe('Demo (demo) is not working on a turn; there is nothing to stop.');
    const unknown = await refusal(daemon.api['agents.stop']({ agentId: 'nobody' }));
    expect(unknown.code).toBe('unknown_agent');
    expect(unknown.message).toContain('"nobody"');
  });

  it('turnTimeoutMinutes: the deadline interrupts the turn: failed / turn_timeout; the agent takes the next message', async () => {
    const scheduler = new VirtualTimeScheduler();
    const daemon = await start({ clock: scheduler, turnTimeoutMinutes: 3 });
    const busy = agentState(daemon.events$, 'busy');
    const slow = await send(daemon, '@demo /slow');
    await busy;
    // Virtual time up to the deadline (3 min) only: the 30 s grace its interrupt gives the runtime
    // is then cancelled by the turn's end (the demo honours its interrupt).
    scheduler.maxFrames = 3 * 60_000;
    scheduler.flush();
    expect(scheduler.frame).toBe(3 * 60_000);
    const wake = await slow.done;
    expect(wake).toMatchObject({ status: 'failed', reason: 'turn_timeout' });
    expect(wake.detail).toBe('the turn ran longer than 3 minutes (turnTimeoutMinutes) and was interrupted');

    const idle = agentState(daemon.events$, 'idle');
    const next = await send(daemon, '@demo hello again');
    expect((await next.done).status).toBe('reply_sent');
    await idle;
    // The finished turn's deadline was cancelled at its end: nothing is left to fire.
    expect(scheduler.actions.filter((a) => !a.closed)).toHaveLength(0);
  });
});

/** A runtime whose turn never ends and that ignores its own interrupt (a hung CLI). */
class DeafRuntime implements RuntimeAdapter {
  readonly runtime = 'claude-code' as const;
  readonly #events = new Subject<RuntimeEventEnvelope>();
  readonly events$ = this.#events.asObservable();
  interrupts = 0;
  stopped = false;

  async start(): Promise<StartResult> {
    this.#events.next({ type: 'ready', sessionId: null, resumed: false, generation: 1 });
    return { ok: true, sessionId: null, resumed: false };
  }
  async deliver(): Promise<DeliverResult> {
    this.#events.next({ type: 'turn_start', sessionId: null, generation: 1 });
    return { ok: true };
  }
  async interrupt(): Promise<void> {
    this.interrupts += 1;
  }
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.#events.next({ type: 'exit', code: 0, signal: null, expected: true, generation: 1 });
    this.#events.complete();
  }
}

describe('issue 29: a runtime that ignores its own interrupt', () => {
  it('is replaced after the grace; the wake ends failed / stopped_by_operator (never recovered into the new process)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentteam-turns-deaf-'));
    dirs.push(dir);
    await writeFile(
      join(dir, 'agentteam.json'),
      JSON.stringify({ agents: [{ id: 'deaf', name: 'Deaf', runtime: 'claude-code' }] }),
    );
    const runtimes: DeafRuntime[] = [];
    const scheduler = new VirtualTimeScheduler();
    const daemon = await createDaemon({
      dataDir: dir,
      clock: scheduler,
      probe: readyProbe,
      createRuntime: () => {
        const runtime = new DeafRuntime();
        runtimes.push(runtime);
        return { ok: true, adapter: runtime };
      },
    });
    daemons.push(daemon);
    const busy = firstValueFrom(
      daemon.events$.pipe(
        filter((e) => e.name === 'agent.updated' && e.payload.id === 'deaf' && e.payload.state === 'busy'),
      ),
    );
    const ended = terminalWakes(daemon.events$);
    const sent = await daemon.api['messages.send']({ target: '#general', content: '@deaf work forever' });
    const token =
      (await daemon.api['wakes.list']({ target: '#general' })).find((w) => w.messageId === sent.messageId)?.wakeToken ??
      '';
    const done = ended(token);
    await busy;
    await daemon.api['agents.stop']({ agentId: 'deaf' });
    expect(runtimes[0]?.interrupts).toBe(1);
    // The runtime ignored it: the grace (30 s, virtual) passes, and its process is replaced.
    const replaced = firstValueFrom(
      daemon.events$.pipe(
        filter((e) => e.name === 'agent.updated' && e.payload.id === 'deaf' && e.payload.state === 'idle'),
      ),
    );
    // Only past the grace: a full flush would also run the turn's 2 h deadline at once, before the
    // asynchronous replacement ended the old turn (in real time it ends within milliseconds).
    scheduler.maxFrames = 60_000;
    scheduler.flush();
    const wake = await done;
    expect(wake).toMatchObject({ status: 'failed', reason: 'stopped_by_operator' });
    expect(wake.detail).toBe('the operator stopped the turn; the runtime did not end the turn, so it was restarted');
    await replaced;
    expect(runtimes).toHaveLength(2);
    expect(runtimes[0]?.stopped).toBe(true);
    expect(runtimes[1]?.stopped).toBe(false);
  });
});
