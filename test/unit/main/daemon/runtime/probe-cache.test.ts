/**
 * issue 42 "Readiness that costs no full CLI each time": the probe (which runs the CLI) is asked
 * once, then again only when a file it depends on changed, the agent's entry changed, or the
 * operator's Retry asks fresh — counted here — and a daemon start reuses the answer on disk.
 */
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { AgentConfigSchema } from '../../../../../shared/config.js';
import type { ReadinessProbe } from '../../../../../main/daemon/runtime/cli-probe.js';
import { PROBES_AT_ONCE, ProbeCache } from '../../../../../main/daemon/runtime/probe-cache.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const dirs: TempDir[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

it('asks the CLI once, then only when its files or the entry change, or fresh; a new start reuses the answer', async () => {
  const data = makeTempDir('agentteam-probe-cache-');
  const home = makeTempDir('agentteam-probe-person-');
  dirs.push(data, home);
  let outcome: ReadinessProbe['outcome'] = 'needs_sign_in';
  const asked: string[] = [];
  const probe = (agent: { id: string }): Promise<ReadinessProbe> => {
    asked.push(agent.id);
    // The CLI writes its own state as it answers (as `claude auth status` does): not a change to re-ask for.
    mkdirSync(join(data.path, 'runtimes', agent.id, 'config'), { recursive: true });
    writeFileSync(join(data.path, 'runtimes', agent.id, 'config', 'state.json'), String(asked.length));
    return Promise.resolve({ outcome, cliVersion: '2.0.0', detail: null, checkedAt: new Date().toISOString() });
  };
  const person = { home: home.path, env: {}, platform: 'linux' as const };
  const cache = new ProbeCache({ dataDir: data.path, person, probe });
  const claude = AgentConfigSchema.parse({ id: 'claude', name: 'Claude', runtime: 'claude-code' });

  expect((await cache.probe(claude)).outcome).toBe('needs_sign_in');
  expect((await cache.probe(claude)).outcome).toBe('needs_sign_in');
  expect((await cache.probe(claude)).outcome).toBe('needs_sign_in');
  expect(asked).toEqual(['claude']);

  // The person signs in: their credential file appears; the next check asks the CLI again.
  outcome = 'ready';
  mkdirSync(join(home.path, '.claude'));
  writeFileSync(join(home.path, '.claude', '.credentials.json'), '{}');
  expect((await cache.probe(claude)).outcome).toBe('ready');
  expect((await cache.probe(claude)).outcome).toBe('ready');
  expect(asked).toEqual(['claude', 'claude']);

  // A login refreshed in place (same size, new mtime) is a change too.
  utimesSync(join(home.path, '.claude', '.credentials.json'), new Date(), new Date(Date.now() + 60_000));
  await cache.probe(claude);
  expect(asked).toHaveLength(3);

  // Another entry (a key in env) is another answer; Retry (fresh) always asks.
  await cache.probe({ ...claude, env: { ANTHROPIC_API_KEY: 'k' } });
  expect(asked).toHaveLength(4);
  await cache.probe({ ...claude, env: { ANTHROPIC_API_KEY: 'k' } }, true);
  expect(asked).toHaveLength(5);

  // The daemon starts again: the answer kept on disk is reused while nothing changed.
  const next = new ProbeCache({ dataDir: data.path, person, probe });
  expect((await next.probe({ ...claude, env: { ANTHROPIC_API_KEY: 'k' } })).outcome).toBe('ready');
  expect(asked).toHaveLength(5);
});

it('issue 43: never answers an agent on another host from what it kept — a host down at one check is asked again at the next', async () => {
  const data = makeTempDir('agentteam-probe-cache-');
  dirs.push(data);
  let outcome: ReadinessProbe['outcome'] = 'host_unreachable';
  let asked = 0;
  const probe = (): Promise<ReadinessProbe> => {
    asked += 1;
    return Promise.resolve({ outcome, cliVersion: null, detail: null, checkedAt: new Date().toISOString() });
  };
  const cache = new ProbeCache({ dataDir: data.path, probe });
  const far = AgentConfigSchema.parse({ id: 'far', name: 'Far', runtime: 'claude-code', host: 'ssh://dev@box' });
  expect((await cache.probe(far)).outcome).toBe('host_unreachable');
  outcome = 'ready';
  expect((await cache.probe(far)).outcome).toBe('ready');
  expect(asked).toBe(2);
  // And a new daemon finds no kept answer of it either.
  expect((await new ProbeCache({ dataDir: data.path, probe }).probe(far)).outcome).toBe('ready');
  expect(asked).toBe(3);
});

it('asks at most PROBES_AT_ONCE CLIs at a time; the others wait their turn, and every agent gets its answer', async () => {
  const data = makeTempDir('agentteam-probe-turns-');
  dirs.push(data);
  let running = 0;
  let most = 0;
  const answers: Array<() => void> = [];
  const probe = (): Promise<ReadinessProbe> => {
    running += 1;
    most = Math.max(most, running);
    return new Promise((resolve) =>
      answers.push(() => {
        running -= 1;
        resolve({ outcome: 'ready', cliVersion: '2.0.0', detail: null, checkedAt: new Date().toISOString() });
      }),
    );
  };
  const cache = new ProbeCache({ dataDir: data.path, probe });
  const agents = Array.from({ length: 7 }, (_, i) =>
    AgentConfigSchema.parse({ id: `claude${i}`, name: `Claude ${i}`, runtime: 'claude-code' }),
  );
  const all = Promise.all(agents.map((a) => cache.probe(a)));
  // Answer the CLIs one by one as they are asked (a microtask turn lets the next in line start).
  for (let answered = 0; answered < agents.length; answered++) {
    await new Promise((r) => setImmediate(r));
    expect(running).toBeLessThanOrEqual(PROBES_AT_ONCE);
    answers.shift()?.();
  }
  expect((await all).map((p) => p.outcome)).toEqual(agents.map(() => 'ready'));
  expect(most).toBe(PROBES_AT_ONCE);
});

it('keeps no provisional answer (a status check that timed out): the next check asks the CLI again', async () => {
  const data = makeTempDir('agentteam-probe-provisional-');
  dirs.push(data);
  // The agent's runtime dir exists, as once its runtime ran (its HOME and config dirs).
  mkdirSync(join(data.path, 'runtimes', 'claude'), { recursive: true });
  let asked = 0;
  const probe = (): Promise<ReadinessProbe> => {
    asked += 1;
    return Promise.resolve({
      outcome: 'ready',
      cliVersion: '2.0.0',
      detail: 'its sign-in check did not answer within 15 s; started, its first turn tells',
      checkedAt: new Date().toISOString(),
      ...(asked === 1 ? { provisional: true as const } : {}),
    });
  };
  const cache = new ProbeCache({ dataDir: data.path, probe });
  const claude = AgentConfigSchema.parse({ id: 'claude', name: 'Claude', runtime: 'claude-code' });
  expect((await cache.probe(claude)).provisional).toBe(true);
  await cache.probe(claude);
  await cache.probe(claude);
  expect(asked).toBe(2);
});

it('issue 44: a probe that answers after the daemon stopped (close) writes nothing into the data dir', async () => {
  const data = makeTempDir('agentteam-probe-closed-');
  dirs.push(data);
  let answer: (p: ReadinessProbe) => void = () => undefined;
  const probe = (): Promise<ReadinessProbe> => new Promise((resolve) => (answer = resolve));
  const cache = new ProbeCache({ dataDir: data.path, probe });
  const claude = AgentConfigSchema.parse({ id: 'claude', name: 'Claude', runtime: 'claude-code' });
  const asked = cache.probe(claude); // the CLI is asked at once (fewer than PROBES_AT_ONCE run)
  cache.close();
  answer({ outcome: 'ready', cliVersion: '2.0.0', detail: null, checkedAt: new Date().toISOString() });
  // The caller still gets its answer; only nothing is kept.
  expect((await asked).outcome).toBe('ready');
  expect(existsSync(join(data.path, 'runtimes', 'claude', 'readiness-probe.json'))).toBe(false);
});
