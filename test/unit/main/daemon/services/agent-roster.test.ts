/**
 * The agent roster (main/daemon/services/agent-roster.ts): the agents as agentteam.json has them
 * and as they run, their API view and its re-emit, their wake profile, and the per-agent
 * restart chain (issue 14).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BehaviorSubject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../../../../shared/api/contract.js';
import { AgentConfigSchema, type AgentConfig, type Config } from '../../../../../shared/config.js';
import type { ReadinessProbe } from '../../../../../main/daemon/runtime/readiness.js';
import { AgentRoster, type AgentUpdate, type RosterSession } from '../../../../../main/daemon/services/agent-roster.js';
import type { MadeAdapter, MaybeMadeAdapter } from '../../../../../main/daemon/services/agent-session.js';
import type { AgentProfile } from '../../../../../main/daemon/wake/wake-lifecycle.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';
import { StepScheduler } from '../../../../fixtures/virtual-time.js';

const agentOf = (over: Partial<AgentConfig> & Pick<AgentConfig, 'id'>): AgentConfig =>
  AgentConfigSchema.parse({ name: over.id.toUpperCase(), runtime: 'claude-code', ...over });

/** A made adapter that names what it was built from (the tests never run it). */
const made = (agent: AgentConfig): MadeAdapter => ({ ok: false, code: 'built', message: `${agent.id}@${agent.cwd}` });

/** A session whose replacements the test finishes one by one. */
class FakeSession implements RosterSession {
  state: Agent['state'] = 'starting';
  down: RosterSession['down'] = null;
  readonly turnId = null;
  /** issue 40: a CLI runtime is built once its probe found it ready: the start may be a promise of it. */
  readonly started: MaybeMadeAdapter[] = [];
  readonly replacements: Array<{ built: MaybeMadeAdapter; detail: string; finish: () => void }> = [];
  stops = 0;
  wakesOfTurn(): readonly string[] {
    return [];
  }
  /** No turn runs here: nothing to end (issue 29's Stop reaches sessions through the roster). */
  endTurn(): boolean {
    return false;
  }
  stillEnding(): boolean {
    return false;
  }
  start(m: MaybeMadeAdapter): Promise<boolean> {
    this.started.push(m);
    return Promise.resolve(true);
  }
  replace(build: () => MaybeMadeAdapter, detail: string): Promise<boolean> {
    return new Promise((resolve) => this.replacements.push({ built: build(), detail, finish: () => resolve(true) }));
  }
  /** issue 42: sleep is not exercised here (agent-sleep tests drive it through a real session). */
  sleep(): Promise<boolean> {
    return Promise.resolve(false);
  }
  stop(): Promise<void> {
    this.stops += 1;
    return Promise.resolve();
  }
}

const probe = (outcome: ReadinessProbe['outcome']): ReadinessProbe => ({
  outcome,
  cliVersion: '1.0.0',
  detail: null,
  checkedAt: '2026-01-01T00:00:00.000Z',
});

/** Lets queued promise callbacks run (the restart chain is promise-driven, no timers). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

const dirs: TempDir[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

function setup(
  agents: AgentConfig[] = [agentOf({ id: 'a' }), agentOf({ id: 'b' })],
  outcome: () => ReadinessProbe['outcome'] = () => 'ready',
) {
  const dir = makeTempDir('agentteam-roster-');
  dirs.push(dir);
  const file = { config: { agents } as unknown as Config, state$: new BehaviorSubject<unknown>('loaded') };
  const registered: AgentProfile[] = [];
  const probes: string[] = [];
  let applied = 0;
  const clock = new StepScheduler();
  const roster = new AgentRoster({
    clock,
    agents,
    file,
    lifecycle: { registerAgent: (p) => registered.push(p) },
    dataDir: dir.path,
    probe: (a) => {
      probes.push(a.id);
      return Promise.resolve(probe(outcome()));
    },
  });
  roster.applied$.subscribe(() => void (applied += 1));
  const updates: AgentUpdate[] = [];
  roster.updated$.subscribe((u) => updates.push(u));
  const sessions = new Map<string, FakeSession>();
  const launch = (id: string) => {
    const s = new FakeSession();
    sessions.set(id, s);
    roster.launch(id, s, made);
    return s;
  };
  /** A file edit: agentteam.json now has `next`, and the source says so. */
  const edit = (next: AgentConfig[]) => {
    file.config = { agents: next } as unknown as Config;
    file.state$.next('edited');
  };
  /** What is scheduled on the clock, in ms from now. */
  const scheduled = () => clock.actions.filter((a) => !a.closed).map((a) => a.delay - clock.frame);
  return { dir: dir.path, roster, registered, probes, updates, launch, edit, clock, scheduled, applied: () => applied };
}

describe('AgentRoster: one registry, one lookup', () => {
  it('looks agents up as they run; an unknown id falls back (its id as name, demo, the schema default tools)', () => {
    const r = setup([agentOf({ id: 'a', name: 'Ada', runtime: 'codex', agentTools: 'cli' })]);
    expect(r.roster.agent('a')?.name).toBe('Ada');
    expect(r.roster.name('a')).toBe('Ada');
    expect(r.roster.runtimeOf('a')).toBe('codex');
    expect([...r.roster.ids()]).toEqual(['a']);
    expect(r.roster.agent('zed')).toBeUndefined();
    expect(r.roster.name('zed')).toBe('zed');
    expect(r.roster.runtimeOf('zed')).toBe('demo');
    expect(r.roster.session('a')).toBeUndefined();
  });

  it("policies are the file's entry now, else the running entry, else the schema's defaults", () => {
    const r = setup([agentOf({ id: 'a', allow: ['Bash(ls)'], approvalTimeoutSeconds: 60 })]);
    expect(r.roster.policyOf('a')).toMatchObject({ allow: ['Bash(ls)'], approvalTimeoutSeconds: 60 });
    r.edit([agentOf({ id: 'a', allow: ['Bash(npm test)'], approvalTimeoutSeconds: 30 })]);
    expect(r.roster.policyOf('a')).toMatchObject({ allow: ['Bash(npm test)'], approvalTimeoutSeconds: 30 });
    // Removed from the file by hand: what runs still answers.
    r.edit([]);
    expect(r.roster.policyOf('a')).toMatchObject({ allow: ['Bash(ls)'], approvalTimeoutSeconds: 60 });
    expect(r.roster.policyOf('zed')).toEqual({ approvalTimeoutSeconds: 900, allow: [] });
  });
});

describe('AgentRoster: the agent views', () => {
  it("views read `allow` from the file as it is now and the rest from what runs; a session's state, or crashed", () => {
    const r = setup([agentOf({ id: 'a', allow: ['Bash(ls)'] })]);
    expect(r.roster.views()).toMatchObject([
      { id: 'a', state: 'crashed', allow: ['Bash(ls)'], cwd: join(r.dir, 'workspaces', 'a') },
    ]);
    const s = r.launch('a');
    s.state = 'idle';
    r.edit([agentOf({ id: 'a', allow: [], cwd: '/elsewhere' })]);
    // The file's cwd waits for a restart; its rules apply at once.
    expect(r.roster.views()).toMatchObject([
      { id: 'a', state: 'idle', allow: [], cwd: join(r.dir, 'workspaces', 'a') },
    ]);
    expect(r.roster.appliedAgents()).toMatchObject([{ id: 'a', allow: [], cwd: '.' }]);
  });

  it('re-emits a view on a state change, on a readiness change and (once started) on a file change', async () => {
    const r = setup([agentOf({ id: 'a' })]);
    const s = r.launch('a');
    s.state = 'idle';
    r.roster.changed('a');
    r.roster.changed('zed');
    expect(r.updates.map((u) => [u.agent.id, u.state])).toEqual([['a', 'idle']]);
    // Not followed before start(): the file's current state is never a change.
    r.edit([agentOf({ id: 'a', allow: ['x'] })]);
    expect(r.updates).toHaveLength(1);
    r.roster.start();
    await settle();
    // start() checks readiness: the probe's result is shown.
    expect(r.probes).toEqual(['a']);
    expect(r.updates.at(-1)?.more.readiness).toMatchObject({ state: 'ready', cliVersion: '1.0.0' });
    const before = r.updates.length;
    r.edit([agentOf({ id: 'a', allow: ['y'] })]);
    expect(r.updates.slice(before).map((u) => u.more.allow)).toEqual([['y']]);
    r.roster.restarting('a', 2);
    expect(r.updates.at(-1)?.more.readiness).toMatchObject({ state: 'ready' });
    s.state = 'starting';
    r.roster.restarting('a', 3);
    expect(r.updates.at(-1)?.more.readiness).toMatchObject({ state: 'restarting', restart: { attempt: 3 } });
    r.roster.dispose();
    r.edit([agentOf({ id: 'a' })]);
    r.roster.changed('a');
    expect(r.updates.at(-1)?.more.readiness).toMatchObject({ state: 'restarting' });
  });
});

describe('AgentRoster: launch and restart', () => {
  it("launch registers the agent's wake profile and starts its session with the runtime built for its entry", async () => {
    const r = setup([agentOf({ id: 'a', name: 'Ada', language: 'zh-CN' })]);
    const s = r.launch('a');
    expect(r.registered).toEqual([
      {
        agentId: 'a',
        publicName: 'a',
        displayName: 'Ada',
        runtime: 'claude-code',
        model: null,
        language: 'zh-CN',
        agentTools: 'mcp',
      },
    ]);
    expect(await Promise.all(s.started)).toEqual([made(agentOf({ id: 'a' }))]);
    expect(r.roster.session('a')).toBe(s);
  });

  it('a restart applies the file entry: the lookup, the wake profile and "restart to apply" follow; readiness is checked after', async () => {
    const r = setup();
    const s = r.launch('a');
    // issue 40: launch probed once before building; what follows counts the checks after the restart.
    await settle();
    r.probes.length = 0;
    const next = agentOf({ id: 'a', name: 'Ada 2', cwd: '/work/a', permissions: 'read-only' });
    r.roster.restart(next, { workspaceChanged: true });
    expect(r.roster.agent('a')).toBe(next);
    expect(r.roster.running()[0]).toBe(next);
    expect(r.registered.at(-1)).toMatchObject({ agentId: 'a', displayName: 'Ada 2' });
    expect(r.applied()).toBe(1);
    await settle();
    expect(s.replacements.map((x) => [x.built, x.detail])).toEqual([
      [made(next), 'the agent was restarted to apply its new workspace or permissions'],
    ]);
    expect(r.probes).toEqual([]);
    s.replacements[0]?.finish();
    await settle();
    expect(r.probes).toEqual(['a']);
  });

  it('restarts of one agent run one after another; another agent does not wait', async () => {
    const r = setup();
    const a = r.launch('a');
    const b = r.launch('b');
    r.roster.restart(agentOf({ id: 'a', cwd: '/one' }), { workspaceChanged: false });
    r.roster.restart(agentOf({ id: 'a', cwd: '/two' }), { workspaceChanged: false });
    r.roster.restart(agentOf({ id: 'b', cwd: '/three' }), { workspaceChanged: false });
    await settle();
    expect(a.replacements.map((x) => x.built)).toEqual([made(agentOf({ id: 'a', cwd: '/one' }))]);
    expect(b.replacements).toHaveLength(1);
    a.replacements[0]?.finish();
    await settle();
    expect(a.replacements.map((x) => x.built)).toEqual([
      made(agentOf({ id: 'a', cwd: '/one' })),
      made(agentOf({ id: 'a', cwd: '/two' })),
    ]);
  });

  it('a replacement that fails does not break the chain', async () => {
    const r = setup();
    const s = r.launch('a');
    // issue 40: launch probed once before building; what follows counts the checks after the restarts.
    await settle();
    r.probes.length = 0;
    const built: MaybeMadeAdapter[] = [];
    s.replace = (build) => {
      built.push(build());
      return built.length === 1 ? Promise.reject(new Error('could not stop the old process')) : Promise.resolve(true);
    };
    r.roster.restart(agentOf({ id: 'a', cwd: '/one' }), { workspaceChanged: false });
    r.roster.restart(agentOf({ id: 'a', cwd: '/two' }), { workspaceChanged: false });
    await settle();
    expect(built).toEqual([made(agentOf({ id: 'a', cwd: '/one' })), made(agentOf({ id: 'a', cwd: '/two' }))]);
    // Only the replacement that happened is followed by a readiness check.
    expect(r.probes).toEqual(['a']);
  });

  it('a workspace change forgets the stored session once the old process is gone; a policy change keeps it', async () => {
    const r = setup();
    const s = r.launch('a');
    const stored = join(r.dir, 'runtimes', 'a', 'session.json');
    mkdirSync(join(r.dir, 'runtimes', 'a'), { recursive: true });
    writeFileSync(stored, JSON.stringify({ sessionId: 's1', fingerprint: 'f' }));
    r.roster.restart(agentOf({ id: 'a', permissions: 'full' }), { workspaceChanged: false });
    await settle();
    expect(s.replacements).toHaveLength(1);
    expect(existsSync(stored)).toBe(true);
    s.replacements[0]?.finish();
    r.roster.restart(agentOf({ id: 'a', cwd: '/new' }), { workspaceChanged: true });
    await settle();
    expect(s.replacements).toHaveLength(2);
    expect(existsSync(stored)).toBe(false);
  });

  it('an overflow renews the session (issue 24, §6.6): the same entry, its stored session forgotten, after the restart under way', async () => {
    const r = setup();
    const s = r.launch('a');
    const stored = join(r.dir, 'runtimes', 'a', 'session.json');
    mkdirSync(join(r.dir, 'runtimes', 'a'), { recursive: true });
    writeFileSync(stored, JSON.stringify({ sessionId: 's1', fingerprint: 'f' }));
    r.roster.restart(agentOf({ id: 'a', cwd: '/one' }), { workspaceChanged: false });
    r.roster.renew('a', 'the context window overflowed');
    // Forgotten at once (a daemon killed before the replacement never resumes it either).
    expect(existsSync(stored)).toBe(false);
    await settle();
    // The replacement waits for the restart under way (one replacement at a time).
    expect(s.replacements).toHaveLength(1);
    // Whatever the old process saved meanwhile is forgotten again once it is gone.
    writeFileSync(stored, JSON.stringify({ sessionId: 's1', fingerprint: 'f' }));
    s.replacements[0]?.finish();
    await settle();
    expect(s.replacements.map((x) => [x.built, x.detail])).toEqual([
      [made(agentOf({ id: 'a', cwd: '/one' })), expect.any(String)],
      // The entry as it runs now (the restart's), never resumed.
      [made(agentOf({ id: 'a', cwd: '/one' })), 'the context window overflowed'],
    ]);
    expect(existsSync(stored)).toBe(false);
    expect(r.registered.map((p) => p.agentId)).toEqual(['a', 'a']);
  });

  it('a renewal of an unknown agent, or one not launched, is ignored', async () => {
    const r = setup();
    r.roster.renew('zed', 'overflow');
    r.roster.renew('b', 'overflow');
    await settle();
    expect(r.probes).toEqual([]);
  });

  it('an unknown agent, or one not launched, is ignored', async () => {
    const r = setup();
    r.roster.restart(agentOf({ id: 'zed' }), { workspaceChanged: true });
    r.roster.restart(agentOf({ id: 'b', cwd: '/x' }), { workspaceChanged: true });
    r.roster.launch('zed', new FakeSession(), made);
    await settle();
    expect(r.roster.agent('zed')).toBeUndefined();
    expect(r.roster.agent('b')?.cwd).toBe('.');
    expect(r.registered).toEqual([]);
    expect(r.applied()).toBe(0);
  });

  it('issue 40: a CLI that is not signed in is never built (no process); Retry builds it once a check finds it ready', async () => {
    let outcome: ReadinessProbe['outcome'] = 'needs_sign_in';
    const r = setup([agentOf({ id: 'a' }), agentOf({ id: 'd', runtime: 'demo' })], () => outcome);
    const builds: string[] = [];
    const build = (agent: AgentConfig): MadeAdapter => {
      builds.push(agent.id);
      return made(agent);
    };
    const a = new FakeSession();
    const d = new FakeSession();
    r.roster.launch('a', a, build);
    r.roster.launch('d', d, build);
    // The demo needs no probe: built at once.
    expect(builds).toEqual(['d']);
    expect(await Promise.all(a.started)).toEqual([
      {
        ok: false,
        code: 'auth_required',
        message: 'agent "a" was not started: its CLI is not signed in; it starts once a check finds it ready (Retry)',
      },
    ]);
    expect(builds).toEqual(['d']);
    a.state = 'crashed';
    // Retry while still not signed in: probed again, nothing replaced, nothing built.
    const probed = r.probes.length;
    await r.roster.retry('a');
    expect(r.probes.length).toBe(probed + 1);
    expect(a.replacements).toEqual([]);
    expect(builds).toEqual(['d']);
    // Signed in now: Retry builds it.
    outcome = 'ready';
    const retried = r.roster.retry('a');
    await settle();
    a.replacements[0]?.finish();
    await retried;
    expect(a.replacements).toHaveLength(1);
    expect(await Promise.all(a.replacements.map((x) => x.built))).toEqual([made(agentOf({ id: 'a' }))]);
    expect(builds).toEqual(['d', 'a']);
  });

  it("issue 40 item 6: a CLI held back for its sign-in is looked at again on the daemon's clock, only while one is held back", async () => {
    let outcome: ReadinessProbe['outcome'] = 'needs_sign_in';
    const r = setup([agentOf({ id: 'a' }), agentOf({ id: 'd', runtime: 'demo' })], () => outcome);
    r.roster.start();
    await settle();
    const a = r.launch('a');
    r.launch('d');
    await Promise.all(a.started);
    // Ready agents leave nothing on the clock (the deadline test counts what is left).
    expect(r.scheduled()).toEqual([]);
    // The session reports its runtime down (the refused start): one check is scheduled, 5 s on.
    a.state = 'crashed';
    r.roster.changed('a');
    r.roster.changed('a');
    expect(r.scheduled()).toEqual([5000]);
    const probed = r.probes.length;
    // Looked at again (a cached probe), still not signed in: nothing built, looked at again 5 s later.
    r.clock.step();
    await settle();
    expect(r.probes.length).toBe(probed + 1);
    expect(a.replacements).toEqual([]);
    expect(r.scheduled()).toEqual([5000]);
    // Signed in now: the next check starts it, and nothing is left on the clock.
    outcome = 'ready';
    r.clock.step();
    await settle();
    expect(a.replacements).toHaveLength(1);
    expect(await a.replacements[0]?.built).toEqual(made(agentOf({ id: 'a' })));
    a.state = 'starting';
    a.replacements[0]?.finish();
    await settle();
    // The check that found it held back looks once more, finds none, and schedules nothing.
    const before = r.probes.length;
    r.clock.step();
    await settle();
    expect(r.probes.length).toBe(before);
    expect(r.scheduled()).toEqual([]);
    expect(a.replacements).toHaveLength(1);
  });

  it('stop stops every launched session', async () => {
    const r = setup();
    const a = r.launch('a');
    const b = r.launch('b');
    await r.roster.stop();
    expect([a.stops, b.stops]).toEqual([1, 1]);
  });
});
