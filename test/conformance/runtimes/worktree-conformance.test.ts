/**
 * issue 26, the conformance table: each real runtime CLI (fake model) isolated in a git worktree
 * of a real repository edits a file through its own shell tool (allowed by the operator as it
 * asks). The wake's changes show exactly that file and hunk, in the worktree; the person's
 * checkout is untouched until the merge, which fast-forwards the base and leaves it clean.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { allowEachAfterSnapshot, changesWhen } from '../../fixtures/wake-changes-watch.js';
import { DaemonHarness, type RealRuntime } from '../../fixtures/daemon-harness.js';
import { makeGitRepo, personView } from '../../fixtures/git-repo.js';

const RUNTIMES: readonly RealRuntime[] = ['claude-code', 'codex', 'opencode'];

describe.each(RUNTIMES)('%s in a worktree', (runtime) => {
  it('edits a file: the wake shows exactly that hunk in its worktree; merge lands it in a clean checkout', async () => {
    const repo = makeGitRepo({ 'a.txt': 'one\ntwo\nthree\n' }, `agentteam-wt-conf-${runtime}-`);
    const trees = realpathSync(mkdtempSync(join(tmpdir(), `agentteam-wt-conf-trees-${runtime}-`)));
    onTestFinished(() => {
      repo.remove();
      rmSync(trees, { recursive: true, force: true });
    });
    const h = await DaemonHarness.start(runtime, {
      agentConfig: { cwd: repo.path, isolation: 'worktree', worktreesDir: trees },
    });
    onTestFinished(() => h.dispose());
    // The operator allows each question, once its wake's start snapshot is stored.
    const answering = allowEachAfterSnapshot(h.daemon);
    onTestFinished(() => answering.unsubscribe());
    await h.ready(60_000);
    const before = personView(repo.path);

    const { wakeToken } = await h.send('#general', '[[shell:sed -i s/two/TWO/ a.txt]] change the second line');
    await h.terminal(wakeToken, 90_000);
    await h.idle(30_000);
    const worktree = join(trees, h.agentId);
    const changes = await changesWhen(h.daemon, wakeToken, (c) => c.state !== 'pending');
    expect(changes).toMatchObject({ state: 'tracked', workspace: worktree, reason: null });
    expect(changes.files.map(({ path, status, added, removed }) => ({ path, status, added, removed }))).toEqual([
      { path: 'a.txt', status: 'modified', added: 1, removed: 1 },
    ]);
    expect(changes.files[0]?.patch).toContain('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n');
    const during = personView(repo.path);
    expect({ status: during.status, stash: during.stash }).toEqual({ status: before.status, stash: before.stash });
    expect(during.index.equals(before.index)).toBe(true);

    const merged = await h.api['worktree.merge']({ agentId: h.agentId, message: `${runtime}: second line` });
    expect(merged).toMatchObject({ kind: 'merged', how: 'fast-forward', committed: true });
    expect(readFileSync(join(repo.path, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(repo.git('status', '--porcelain=v1', '--untracked-files=all')).toBe('');
  }, 240_000);
});
