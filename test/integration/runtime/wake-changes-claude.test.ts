/**
 * issue 26 with a real runtime CLI: Claude Code (against the scripted fake model) edits a file in
 * its workspace, a real git repository, through its own Bash tool (allowed by the operator); the wake's changes show exactly
 * that file and hunk, and the person's index and stash are as they were.
 */
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/contract.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { allowAfterSnapshot, changesWhen } from '../../fixtures/wake-changes-watch.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic.js';
import { gitIn as git, makeGitRepo } from '../../fixtures/git-repo.js';

let model: FakeAnthropic;
let dir: string;
let repo: string;
let daemon: Daemon;

beforeAll(async () => {
  model = await startFakeAnthropic();
  dir = await realpath(await mkdtemp(join(tmpdir(), 'agentteam-changes-claude-')));
  repo = makeGitRepo({ 'a.txt': 'one\ntwo\nthree\n' }, 'agentteam-changes-claude-repo-').path;
  await writeFile(join(repo, 'a.txt'), 'one\ntwo\nthree\nstashed\n');
  git(repo, 'stash', '-q');
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [
        {
          id: 'claude',
          name: 'Claude',
          runtime: 'claude-code',
          cwd: repo,
          model: 'fake-model',
          env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'fake-key-changes', CLAUDE_CODE_MAX_RETRIES: '0' },
        },
      ],
    }),
  );
  daemon = await createDaemon({ dataDir: dir });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await model?.close();
  await rm(dir, { recursive: true, force: true });
  await rm(repo, { recursive: true, force: true });
}, 60_000);

it('Claude edits a file: the wake shows exactly that file and hunk; index and stash untouched', async () => {
  const index = await readFile(join(repo, '.git', 'index'));
  const stash = git(repo, 'stash', 'list');
  // Under "ask" (the default) Claude's Bash waits for the operator; allowed here as from the UI,
  // once the wake's start snapshot is stored (fixtures/wake-changes-watch.ts says why).
  const asked = firstValueFrom(
    daemon.events$.pipe(
      filter((e): e is Extract<ApiEvent, { name: 'approval.updated' }> => e.name === 'approval.updated'),
      filter((e) => e.payload.status === 'pending'),
    ),
  );
  const sent = await daemon.api['messages.send']({
    target: '#general',
    content: '@claude [[shell:sed -i s/two/TWO/ a.txt]] change the second line',
  });
  const token = (await daemon.api['wakes.list']({ target: '#general' })).find(
    (w) => w.messageId === sent.messageId,
  )!.wakeToken;
  const approval = (await asked).payload;
  expect(approval.wakeTokens).toEqual([token]);
  await allowAfterSnapshot(daemon, approval);
  const changes = await changesWhen(daemon, token, (c) => c.state === 'tracked' || c.state === 'failed');
  expect(changes.reason).toBeNull();
  expect(changes.files.map(({ path, status, added, removed }) => ({ path, status, added, removed }))).toEqual([
    { path: 'a.txt', status: 'modified', added: 1, removed: 1 },
  ]);
  expect(changes.files[0]?.patch).toContain('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n');
  expect(await readFile(join(repo, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  expect((await readFile(join(repo, '.git', 'index'))).equals(index)).toBe(true);
  expect(git(repo, 'stash', 'list')).toBe(stash);
  expect(git(repo, 'status', '--porcelain=v1')).toBe(' M a.txt\n');
}, 120_000);
