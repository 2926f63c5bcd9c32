/**
 * issue 40 item 3 through the assembled daemon: an agent that cannot start for a cause of its own
 * — its workspace is missing, or overlaps AgentTeam's data folder — reads `cannot_start` with
 * that reason and the exact sentence (never "exited unexpectedly" / `cli_exited`), and a mention
 * of it fails with that same reason (never `runtime_error`).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplaySubject, filter, firstValueFrom } from 'rxjs';
import { afterEach, expect, it } from 'vitest';
import type { Wake } from '../../../shared/api/contract.js';
import { failureWords } from '../../../shared/agent-readiness.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { agentJson } from '../../../main/serve/cli-main.js';
import { wordsOf } from '../../fixtures/runtime-words.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function settle(daemon: Daemon, content: string): Promise<Wake> {
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

it('a missing or overlapping workspace is named as the cause in readiness and in the failed wake', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-cannot-start-'));
  dirs.push(dir);
  const missing = join(dir, 'no-such-project');
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [
        { id: 'ghost', name: 'Ghost', runtime: 'demo', cwd: missing },
        { id: 'nosy', name: 'Nosy', runtime: 'demo', cwd: dir },
      ],
    }),
  );
  const daemon = await createDaemon({ dataDir: dir });
  daemons.push(daemon);

  const agents = await daemon.api['agents.list']({});
  const byId = new Map(agents.map((a) => [a.id, a]));
  expect(byId.get('ghost')?.readiness).toMatchObject({
    state: 'cannot_start',
    ready: false,
    reason: 'workspace_missing',
  });
  expect(byId.get('ghost')?.readiness?.detail).toContain(missing);
  expect(byId.get('nosy')?.readiness).toMatchObject({
    state: 'cannot_start',
    ready: false,
    reason: 'workspace_overlap',
  });
  expect(byId.get('nosy')?.readiness?.detail).toMatch(/is AgentTeam's data folder/);
  // `agentteam agents --json`: the reason and its own fix, never the crash sentence.
  expect(agentJson(byId.get('ghost')!)).toMatchObject({
    state: 'cannot_start',
    reason: 'workspace_missing',
    fix: "Create this agent's workspace folder, or choose another folder under Workspace on the agent's page, then Retry.",
  });
  expect(agentJson(byId.get('nosy')!).fix).toMatch(/neither contains nor lies inside AgentTeam's data folder/);

  const ghost = await settle(daemon, '@ghost hello');
  expect(ghost).toMatchObject({ status: 'failed', reason: 'workspace_missing' });
  expect(ghost.detail).toContain(missing);
  const nosy = await settle(daemon, '@nosy hello');
  expect(nosy).toMatchObject({ status: 'failed', reason: 'workspace_overlap' });
  // The words name the cause, not the runtime and not a crash.
  const words = failureWords('workspace_missing', 'en', { words: wordsOf('demo') });
  expect(words).not.toMatch(/Demo|exited|restarts on its own/);
  expect(failureWords('workspace_overlap', 'zh-CN', { words: wordsOf('demo') })).toMatch(
    /工作区与 AgentTeam 的数据文件夹重叠/,
  );
}, 60_000);
