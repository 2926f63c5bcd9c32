/**
 * issue 26 end to end with a real runtime CLI: two Claude Code agents (against the scripted fake
 * model) isolated in git worktrees of one real repository change the same line at once through
 * their own Bash tool. Each wake's changes show exactly that file and hunk, and the person's
 * checkout is untouched; the first merge fast-forwards the base and leaves the checkout clean,
 * the second reports the conflict and leaves the base exactly as it was; a review comment on a
 * line wakes its agent with `path:line` and the hunk header in what the model receives; after a
 * daemon restart each agent still works in its own worktree.
 */
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concatMap, filter, firstValueFrom, from, map, startWith } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WakeChanges } from '../../../shared/api/contract.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { allowEachAfterSnapshot, changesWhen } from '../../fixtures/wake-changes-watch.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic.js';
import { makeGitRepo, personView, type GitRepo } from '../../fixtures/git-repo.js';

let model: FakeAnthropic;
let dir: string;
let repo: GitRepo;
let daemon: Daemon;

const claude = (id: string) => ({
  id,
  name: id,
  runtime: 'claude-code',
  cwd: repo.path,
  isolation: 'worktree',
  model: 'fake-model',
  env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: `fake-key-${id}`, CLAUDE_CODE_MAX_RETRIES: '0' },
});

beforeAll(async () => {
  model = await startFakeAnthropic();
  dir = await realpath(await mkdtemp(join(tmpdir(), 'agentteam-worktree-claude-')));
  repo = makeGitRepo({ 'a.txt': 'one\ntwo\nthree\n' }, 'agentteam-worktree-claude-repo-');
  await writeFile(join(dir, 'agentteam.json'), JSON.stringify({ agents: [claude('alice'), claude('bob')] }));
  await start();
}, 60_000);

/**
 * Starts the daemon. Under "ask" (the default) each Bash call waits for the operator: allowed as
 * from the UI (once the wake's start snapshot is stored), since this test is about where the edit
 * lands, not who allows it.
 */
async function start(): Promise<void> {
  daemon = await createDaemon({ dataDir: dir });
  allowEachAfterSnapshot(daemon);
}

afterAll(async () => {
  await daemon?.stop();
  await model?.close();
  await rm(dir, { recursive: true, force: true });
  await rm(`${dir}-worktrees`, { recursive: true, force: true });
  repo?.remove();
}, 60_000);

/** Sends `content` to #general and answers the wake of `agentId` with its changes once they are final. */
async function wakeChanges(agentId: string, content: string): Promise<WakeChanges> {
  const sent = await daemon.api['messages.send']({ target: '#general', content });
  const token = (await daemon.api['wakes.list']({ target: '#general' })).find(
    (w) => w.messageId === sent.messageId && w.agentId === agentId,
  )!.wakeToken;
  return changesWhen(daemon, token, (c) => c.state === 'tracked' || c.state === 'failed' || c.state === 'untracked');
}

/** The agent's worktree once its runtime is up in it (its `agent.updated` events, checked from now). */
function worktreeOf(agentId: string) {
  return firstValueFrom(
    daemon.events$.pipe(
      startWith(null),
      concatMap(() => from(daemon.api['agents.list']({}))),
      map((agents) => agents.find((a) => a.id === agentId)),
      filter((a) => a?.state === 'idle' && a.worktree !== null),
      map((a) => a?.worktree ?? null),
    ),
  );
}

const summary = (c: WakeChanges) =>
  c.files.map(({ path, status, added, removed }) => ({ path, status, added, removed }));

it('two isolated Claude agents edit one line at once: exact changes, first merge lands, second conflicts, base untouched', async () => {
  const before = personView(repo.path);
  const alice = await worktreeOf('alice');
  const bob = await worktreeOf('bob');
  expect(alice).toEqual({
    path: `${dir}-worktrees/alice`,
    branch: 'agentteam/alice',
    base: 'main',
    repoRoot: repo.path,
  });
  expect(bob).toMatchObject({ path: `${dir}-worktrees/bob`, branch: 'agentteam/bob', base: 'main' });

  const [aliceChanges, bobChanges] = await Promise.all([
    wakeChanges('alice', '@alice [[shell:sed -i s/two/ALICE/ a.txt]] change the second line'),
    wakeChanges('bob', '@bob [[shell:sed -i s/two/BOB/ a.txt]] change the second line'),
  ]);
  for (const [changes, who, word] of [
    [aliceChanges, alice, 'ALICE'],
    [bobChanges, bob, 'BOB'],
  ] as const) {
    expect(changes.reason).toBeNull();
    expect(changes.workspace).toBe(who?.path);
    expect(summary(changes)).toEqual([{ path: 'a.txt', status: 'modified', added: 1, removed: 1 }]);
    expect(changes.files[0]?.patch).toContain(`@@ -1,3 +1,3 @@\n one\n-two\n+${word}\n three\n`);
    expect(await readFile(join(who?.path ?? '', 'a.txt'), 'utf8')).toBe(`one\n${word}\nthree\n`);
  }
  // Neither edit touched the person's checkout: status, index bytes, stash, file.
  const during = personView(repo.path);
  expect(during.status).toBe(before.status);
  expect(during.index.equals(before.index)).toBe(true);
  expect(during.stash).toBe(before.stash);
  expect(await readFile(join(repo.path, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');

  // A wake's changes can be final before its turn has ended (the runtime reports the turn's end after
  // the reply), and a merge is refused while a turn runs: wait until both agents are idle again.
  await Promise.all([worktreeOf('alice'), worktreeOf('bob')]);

  // "Changes since base" of each agent: the same file, uncommitted.
  expect((await daemon.api['agents.changes']({ agentId: 'alice' })).files.map((f) => f.path)).toEqual(['a.txt']);

  const first = await daemon.api['worktree.merge']({ agentId: 'alice', message: 'Alice: second line' });
  expect(first).toMatchObject({ kind: 'merged', how: 'fast-forward', committed: true });
  expect(await readFile(join(repo.path, 'a.txt'), 'utf8')).toBe('one\nALICE\nthree\n');
  expect(repo.git('log', '-1', '--format=%s', 'main')).toBe('Alice: second line\n');
  expect(repo.git('status', '--porcelain=v1', '--untracked-files=all')).toBe('');
  const merged = repo.git('rev-parse', 'main');

  const second = await daemon.api['worktree.merge']({ agentId: 'bob', message: 'Bob: second line' });
  expect(second).toMatchObject({ kind: 'conflict', files: ['a.txt'] });
  expect(second.kind === 'conflict' && second.message).toMatch(/the merge was aborted and main is unchanged/);
  expect(repo.git('rev-parse', 'main')).toBe(merged);
  expect(await readFile(join(repo.path, 'a.txt'), 'utf8')).toBe('one\nALICE\nthree\n');
  expect(repo.git('status', '--porcelain=v1', '--untracked-files=all')).toBe('');
  // Bob's work is kept as it was, nothing lost: issue 40 item 9, a refused merge leaves his worktree
  // as it found it — the file still changed and uncommitted, his branch not moved by the attempt.
  const bobTree = bob?.path ?? '';
  expect(await readFile(join(bobTree, 'a.txt'), 'utf8')).toBe('one\nBOB\nthree\n');
  expect(repo.git('-C', bobTree, 'status', '--porcelain=v1')).toBe(' M a.txt\n');
  expect(repo.git('show', 'agentteam/bob:a.txt')).toBe('one\ntwo\nthree\n');

  // A review comment on bob's changed line wakes bob with `path:line` and the hunk header.
  const seen = firstValueFrom(model.requests$.pipe(filter((r) => r.input.includes('Keep the lowercase word'))));
  await daemon.api['wakes.comment']({
    wakeToken: bobChanges.wakeToken,
    path: 'a.txt',
    line: 2,
    side: 'new',
    hunkHeader: '@@ -1,3 +1,3 @@',
    lineText: 'BOB',
    text: 'Keep the lowercase word.',
  });
  const received = (await seen).input;
  expect(received).toContain('a.txt:2, in hunk @@ -1,3 +1,3 @@');
  expect(received).toContain('BOB');
}, 240_000);

it('after a daemon restart each agent still works in its own worktree', async () => {
  const alice = await worktreeOf('alice');
  const bob = await worktreeOf('bob');
  await daemon.stop();
  await start();
  expect(await worktreeOf('alice')).toEqual(alice);
  expect(await worktreeOf('bob')).toEqual(bob);
  // The real CLI's shell runs in the worktree: its `pwd` lands there as a change of the wake.
  const changes = await wakeChanges('bob', '@bob [[shell:pwd > where.txt]] where are you?');
  expect(changes.workspace).toBe(bob?.path);
  expect(summary(changes)).toEqual([{ path: 'where.txt', status: 'added', added: 1, removed: 0 }]);
  expect(await readFile(join(bob?.path ?? '', 'where.txt'), 'utf8')).toBe(`${bob?.path}\n`);
  expect(repo.git('status', '--porcelain=v1', '--untracked-files=all')).toBe('');
}, 180_000);
