/**
 * The composition root's own wiring (main/daemon/daemon.ts), with a scripted runtime adapter in
 * place of a CLI so the turn boundaries are exact. The whole-daemon behaviour with the real
 * CLIs is test/conformance/daemon/daemon-conformance.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplaySubject, Subject, filter, firstValueFrom, timeout } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, Wake } from '../../../../shared/api/contract.js';
import { createDaemon, type Daemon } from '../../../../main/daemon/index.js';
import { Store } from '../../../../main/daemon/store/index.js';
import type {
  DeliverResult,
  RuntimeAdapter,
  RuntimeEvent,
  RuntimeEventEnvelope,
  StartResult,
} from '../../../../main/daemon/runtime/runtime-adapter.js';
import { readyProbe } from '../../../fixtures/ready-probe.js';

/** A runtime whose turns the test opens and closes; like Claude Code, a delivery during a turn joins that turn. */
class ScriptedRuntime implements RuntimeAdapter {
  readonly runtime = 'claude-code' as const;
  readonly #events = new Subject<RuntimeEventEnvelope>();
  readonly events$ = this.#events.asObservable();
  readonly delivered$ = new ReplaySubject<string>();
  turnOpen = false;
  /** When set, deliveries wait (as an adapter holds them while a turn is in flight) until `release()`. */
  hold = false;
  #held: Array<() => void> = [];

  release(): void {
    this.hold = false;
    for (const r of this.#held.splice(0)) r();
  }

  emit(event: RuntimeEvent): void {
    this.#events.next({ ...event, generation: 1 });
  }
  async start(): Promise<StartResult> {
    this.emit({ type: 'ready', sessionId: 's1', resumed: false });
    return { ok: true, sessionId: 's1', resumed: false };
  }
  async deliver(text: string): Promise<DeliverResult> {
    if (this.hold) await new Promise<void>((resolve) => this.#held.push(resolve));
    if (!this.turnOpen) {
      this.turnOpen = true;
      this.emit({ type: 'turn_start', sessionId: 's1' });
    }
    this.delivered$.next(text);
    return { ok: true };
  }
  async interrupt(): Promise<void> {}
  async stop(): Promise<void> {
    this.#events.complete();
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(
  thresholdSeconds: number,
): Promise<{ daemon: Daemon; runtime: ScriptedRuntime; events: ReplaySubject<ApiEvent> }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-daemon-unit-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [{ id: 'agent1', name: 'Agent', runtime: 'claude-code' }],
      channels: { local: { silenceWatchdog: { thresholdSeconds } } },
    }),
  );
  const runtime = new ScriptedRuntime();
  const daemon = await createDaemon({
    dataDir: dir,
    probe: readyProbe,
    createRuntime: () => ({ ok: true, adapter: runtime }),
  });
  cleanups.push(() => daemon.stop());
  const events = new ReplaySubject<ApiEvent>();
  const sub = daemon.events$.subscribe(events);
  cleanups.push(async () => sub.unsubscribe());
  return { daemon, runtime, events };
}

const wakeOf = async (daemon: Daemon, target: string, messageId: string): Promise<Wake> => {
  const wake = (await daemon.api['wakes.list']({ target })).find((w) => w.messageId === messageId);
  if (wake === undefined) throw new Error(`no wake for ${messageId}`);
  return wake;
};

describe('createDaemon wiring', () => {
  it('a silence beacon lands on a wake written into the running turn, not only on those of turn.start (watchdog spec A)', async () => {
    const { daemon, runtime, events } = await start(0.2);
    const a = await daemon.api['messages.send']({ target: '#one', content: '@agent1 first' });
    await firstValueFrom(runtime.delivered$);
    const b = await daemon.api['messages.send']({ target: '#two', content: '@agent1 second, while you work' });
    const wakeB = await wakeOf(daemon, '#two', b.messageId);
    // Written into the same turn (no second turn_start).
    expect(runtime.turnOpen).toBe(true);
    await firstValueFrom(
      events.pipe(
        filter(
          (e): e is Extract<ApiEvent, { name: 'wake.timeline' }> =>
            e.name === 'wake.timeline' && e.payload.wakeToken === wakeB.wakeToken && e.payload.kind === 'beacon',
        ),
        timeout({ first: 5000, with: () => Promise.reject(new Error('the wake written mid-turn never got a beacon')) }),
      ),
    );
    const beaconed = await wakeOf(daemon, '#two', b.messageId);
    expect(beaconed.beacons).toBeGreaterThanOrEqual(1);
    expect(beaconed.status).toBe('delivered');
    // The wake of turn.start gets it too.
    expect((await wakeOf(daemon, '#one', a.messageId)).beacons).toBeGreaterThanOrEqual(1);
  });

  it('a wake still waiting for its delivery gets no beacon: the runtime is not working on it yet (watchdog spec A)', async () => {
    const { daemon, runtime, events } = await start(0.2);
    const a = await daemon.api['messages.send']({ target: '#one', content: '@agent1 first' });
    await firstValueFrom(runtime.delivered$);
    runtime.hold = true;
    const c = await daemon.api['messages.send']({ target: '#three', content: '@agent1 later' });
    const wakeA = await wakeOf(daemon, '#one', a.messageId);
    await firstValueFrom(
      events.pipe(
        filter(
          (e) => e.name === 'wake.timeline' && e.payload.wakeToken === wakeA.wakeToken && e.payload.kind === 'beacon',
        ),
        timeout({ first: 5000, with: () => Promise.reject(new Error('no beacon on the running wake')) }),
      ),
    );
    const held = await wakeOf(daemon, '#three', c.messageId);
    expect({ status: held.status, beacons: held.beacons }).toEqual({ status: 'queued', beacons: 0 });
    runtime.release();
  });
});

/** Whether something still listens at `url` (any HTTP answer counts; a refused connection does not). */
const listening = (url: string): Promise<boolean> =>
  fetch(url, { method: 'POST' }).then(
    () => true,
    () => false,
  );

/** Whether the data dir's writer lock is held (the store is open): a second store cannot open. */
const storeHeld = (dir: string): boolean => {
  try {
    Store.open(dir).close();
    return false;
  } catch {
    return true;
  }
};

describe('createDaemon disposal: stop() and a failed start are one path', () => {
  async function twoAgents(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'agentteam-daemon-unit-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(
      join(dir, 'agentteam.json'),
      JSON.stringify({
        // Demo agents are built at launch (a CLI agent only after its readiness probe, issue 40 item
        // 6), so a factory that throws fails the start itself.
        agents: [
          { id: 'agent1', name: 'One', runtime: 'demo' },
          { id: 'agent2', name: 'Two', runtime: 'demo' },
        ],
      }),
    );
    return dir;
  }

  it('a start failing half-way disposes everything built so far, in reverse: runtimes, then MCP, then the store', async () => {
    const dir = await twoAgents();
    const runtime = new ScriptedRuntime();
    let mcpUrl = '';
    const atStop: Array<{ mcp: boolean; store: boolean }> = [];
    const stop = runtime.stop.bind(runtime);
    runtime.stop = async () => {
      atStop.push({ mcp: await listening(mcpUrl), store: storeHeld(dir) });
      await stop();
    };
    const started = createDaemon({
      dataDir: dir,
      probe: readyProbe,
      createRuntime: (agent, deps) => {
        if (agent.id === 'agent2') throw new Error('the second runtime cannot be built');
        mcpUrl = deps.mcp.url;
        return { ok: true, adapter: runtime };
      },
    });
    await expect(started).rejects.toThrow('the second runtime cannot be built');
    // The first agent's runtime was stopped while the MCP server and the store were still there.
    expect(atStop).toEqual([{ mcp: true, store: true }]);
    expect(await listening(mcpUrl)).toBe(false);
    expect(storeHeld(dir)).toBe(false);
  });

  it('stop is idempotent: concurrent and later calls share one disposal', async () => {
    const dir = await twoAgents();
    const runtimes: ScriptedRuntime[] = [];
    const daemon = await createDaemon({
      dataDir: dir,
      probe: readyProbe,
      createRuntime: () => {
        const r = new ScriptedRuntime();
        runtimes.push(r);
        return { ok: true, adapter: r };
      },
    });
    let stops = 0;
    for (const r of runtimes) {
      const stop = r.stop.bind(r);
      r.stop = () => {
        stops += 1;
        return stop();
      };
    }
    let completed = false;
    daemon.events$.subscribe({ complete: () => (completed = true) });
    const first = daemon.stop();
    const second = daemon.stop();
    expect(second).toBe(first);
    await first;
    await daemon.stop();
    expect(stops).toBe(2);
    expect(completed).toBe(true);
    expect(storeHeld(dir)).toBe(false);
  });
});
