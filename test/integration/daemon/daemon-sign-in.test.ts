/**
 * issue 15 through the assembled daemon: readiness per agent (no model call), first-run style
 * agents that are not signed in or whose CLI is missing, and a mention of each ending `failed`
 * with the right reason — through the API a person's UI and CLI use.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplaySubject, filter, firstValueFrom } from 'rxjs';
import { afterEach, expect, it } from 'vitest';
import { readinessFix } from '../../../shared/agent-readiness.js';
import type { Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { agentJson } from '../../../main/serve/cli-main.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic.js';
import { runtimeProcesses } from '../../fixtures/daemon-harness.js';
import { wordsOf } from '../../fixtures/runtime-words.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];
const fakes: FakeAnthropic[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function settle(daemon: Daemon, content: string): Promise<Wake> {
  // Every terminal event from before the send: a fast failure may end the wake before its token is known.
  const ended = new ReplaySubject<Wake>();
  const sub = daemon.events$.subscribe((e) => {
    if (e.name === 'wake.status' && isTerminal(e.payload.status)) ended.next(e.payload);
  });
  try {
    const sent = await daemon.api['messages.send']({ target: '#general', content });
    return await firstValueFrom(ended.pipe(filter((w) => w.messageId === sent.messageId)));
  } finally {
    sub.unsubscribe();
  }
}

it('an agent that is not signed in reads Needs sign-in, and a mention fails with auth_required and the fix', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-signin-'));
  const personHome = await mkdtemp(join(tmpdir(), 'agentteam-person-'));
  dirs.push(dir, personHome);
  const fake = await startFakeAnthropic();
  fakes.push(fake);
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [
        { id: 'demo', name: 'Demo', runtime: 'demo' },
        {
          id: 'claude',
          name: 'Claude',
          runtime: 'claude-code',
          env: { ANTHROPIC_BASE_URL: fake.url, CLAUDE_CODE_MAX_RETRIES: '0' },
        },
        { id: 'codex', name: 'Codex', runtime: 'codex', command: 'agentteam-no-such-cli-4711', permissions: 'full' },
      ],
    }),
  );
  const daemon = await createDaemon({ dataDir: dir, person: { home: personHome, env: {}, platform: 'linux' } });
  daemons.push(daemon);

  // issue 30: the demo starts in its own thread, like a runtime's process: ready once it is up.
  await expect
    .poll(async () => (await daemon.api['agents.check']({})).find((a) => a.id === 'demo')?.readiness?.state, {
      timeout: 20_000,
    })
    .toBe('ready');
  const agents = await daemon.api['agents.check']({});
  const byId = new Map(agents.map((a) => [a.id, a]));
  expect(byId.get('demo')?.readiness?.state).toBe('ready');
  const claude = byId.get('claude');
  expect(claude?.readiness).toMatchObject({ state: 'needs_sign_in', ready: false, reason: 'auth_required' });
  expect(claude?.readiness?.cliVersion).toMatch(/Claude Code/);
  expect(byId.get('codex')?.readiness).toMatchObject({ state: 'cli_missing', ready: false, reason: 'cli_missing' });
  // `agentteam agents --json` rows: the DESIGN.md fields, the fix in one sentence.
  const row = agentJson(claude!);
  expect(Object.keys(row)).toEqual([
    'id',
    'name',
    'runtime',
    'state',
    'ready',
    'reason',
    'fix',
    'cliVersion',
    'cwd',
    'permissions',
    // issue 42: what its process tree costs (none runs: not signed in)
    'rssBytes',
    'cpuPercent',
  ]);
  expect(row.rssBytes).toBe(0);
  expect(row.fix).toBe('Run `claude login` in a terminal, then Retry.');
  // issue 14: the config's policy, `ask` when the agent names none.
  expect(row.permissions).toBe('ask');
  expect(agentJson(byId.get('codex')!).permissions).toBe('full');
  // No model call was made to find this out.
  expect(fake.requests.filter((r) => r.path.endsWith('/v1/messages'))).toEqual([]);

  const failed = await settle(daemon, '@claude can you check the logs?');
  expect(failed).toMatchObject({ status: 'failed', reason: 'auth_required' });
  // issue 40 item 6: a CLI that is not signed in runs no process at all (the probes have ended).
  expect(runtimeProcesses(dir)).toEqual([]);
  expect(readinessFix('needs_sign_in', 'zh-CN', { words: wordsOf('claude-code'), auth: 'cli-login' })).toBe(
    '请在终端运行 `claude login`，然后点重试。',
  );
  const missing = await settle(daemon, '@codex hello');
  expect(missing).toMatchObject({ status: 'failed', reason: 'cli_missing' });
}, 60_000);
