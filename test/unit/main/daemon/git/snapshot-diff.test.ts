/**
 * issue 26: per-wake snapshots and their diff, on real git repositories in temp dirs. A snapshot
 * leaves the person's checkout exactly as it was (`git status --porcelain`, the index file's bytes,
 * `git stash list`); the file list, hunks and counts are git's own, exact; binary and oversized
 * changes are listed with their reason, not inlined.
 */
import { unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_DIFF_BOUNDS, diffTrees } from '../../../../../main/daemon/git/diff.js';
import { mergeBase, snapshotWorkTree } from '../../../../../main/daemon/git/snapshot.js';
import { gitIn as git, makeGitRepo, personView, type GitRepo } from '../../../../fixtures/git-repo.js';

const made: GitRepo[] = [];
afterAll(() => {
  for (const r of made) r.remove();
});

/** A repository with one commit (a.txt, b.txt) on `main`. */
function repo(): string {
  const r = makeGitRepo({ 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'keep\n' }, 'snapshot-');
  made.push(r);
  return r.path;
}

describe('snapshotWorkTree', () => {
  it("leaves the person's status, index bytes and stash unchanged, staged and unstaged work included", async () => {
    const d = repo();
    // The person has a stash, a staged change, an unstaged change and an untracked file.
    writeFileSync(join(d, 'b.txt'), 'stashed\n');
    git(d, 'stash', '-q');
    writeFileSync(join(d, 'a.txt'), 'one\nTWO\nthree\n');
    git(d, 'add', 'a.txt');
    writeFileSync(join(d, 'b.txt'), 'keep\nmore\n');
    writeFileSync(join(d, 'new.txt'), 'untracked\n');
    const before = personView(d);
    expect(before.status).toBe('M  a.txt\n M b.txt\n?? new.txt\n');
    expect(before.stash).toMatch(/^stash@\{0\}/);

    const start = await snapshotWorkTree(d);
    writeFileSync(join(d, 'new.txt'), 'untracked\nand changed\n');
    const end = await snapshotWorkTree(d);

    const after = personView(d);
    expect(after.status).toBe(before.status);
    expect(after.index.equals(before.index)).toBe(true);
    expect(after.stash).toBe(before.stash);
    // The snapshots hold the working tree, untracked files included.
    expect(git(d, 'show', `${start.tree}:new.txt`)).toBe('untracked\n');
    expect(git(d, 'show', `${end.tree}:new.txt`)).toBe('untracked\nand changed\n');
    expect(git(d, 'show', `${start.tree}:a.txt`)).toBe('one\nTWO\nthree\n');
  });

  it('works in a repository without a commit yet, and skips ignored files', async () => {
    const empty = makeGitRepo({}, 'snapshot-empty-');
    made.push(empty);
    const d = empty.path;
    writeFileSync(join(d, '.gitignore'), 'secret.env\n');
    writeFileSync(join(d, 'secret.env'), 'TOKEN=1\n');
    writeFileSync(join(d, 'x.txt'), 'x\n');
    const s = await snapshotWorkTree(d);
    expect(git(d, 'ls-tree', '--name-only', s.tree)).toBe('.gitignore\nx.txt\n');
    expect(git(d, 'status', '--porcelain=v1')).toBe('?? .gitignore\n?? x.txt\n');
  });
});

describe('diffTrees', () => {
  it('lists exactly the changed files with git status, counts and the hunk', async () => {
    const d = repo();
    writeFileSync(join(d, 'preexisting.txt'), 'the person was already working\n');
    const start = await snapshotWorkTree(d);
    writeFileSync(join(d, 'a.txt'), 'one\n2\nthree\nfour\n');
    unlinkSync(join(d, 'b.txt'));
    writeFileSync(join(d, 'c.txt'), 'c1\nc2\n');
    const end = await snapshotWorkTree(d);

    const files = await diffTrees(d, start.tree, end.tree);
    expect(
      files.map(({ path, status, added, removed, omitted }) => ({ path, status, added, removed, omitted })),
    ).toEqual([
      { path: 'a.txt', status: 'modified', added: 2, removed: 1, omitted: null },
      { path: 'b.txt', status: 'deleted', added: 0, removed: 1, omitted: null },
      { path: 'c.txt', status: 'added', added: 2, removed: 0, omitted: null },
    ]);
    const a = files[0]!;
    expect(a.patch).toContain('@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n');
    expect(a.patch).toMatch(/^diff --git a\/a\.txt b\/a\.txt\n/);
  });

  it('reports a rename with both paths', async () => {
    const d = repo();
    const start = await snapshotWorkTree(d);
    git(d, 'mv', 'a.txt', 'moved.txt');
    const end = await snapshotWorkTree(d);
    const files = await diffTrees(d, start.tree, end.tree);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ path: 'moved.txt', oldPath: 'a.txt', status: 'renamed', added: 0, removed: 0 });
  });

  it('lists a binary change and an oversized change without inlining them', async () => {
    const d = repo();
    const start = await snapshotWorkTree(d);
    writeFileSync(join(d, 'image.bin'), Buffer.from([0, 1, 2, 0, 255, 0, 7]));
    writeFileSync(join(d, 'big.txt'), Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n');
    writeFileSync(join(d, 'wide.txt'), `${'x'.repeat(3000)}\n`);
    writeFileSync(join(d, 'small.txt'), 'small\n');
    const end = await snapshotWorkTree(d);
    const files = await diffTrees(d, start.tree, end.tree, {
      ...DEFAULT_DIFF_BOUNDS,
      maxFileLines: 30,
      maxFileBytes: 2000,
    });
    const by = new Map(files.map((f) => [f.path, f]));
    expect(by.get('image.bin')).toMatchObject({
      binary: true,
      added: null,
      removed: null,
      patch: null,
      omitted: 'binary',
    });
    expect(by.get('big.txt')).toMatchObject({
      binary: false,
      added: 40,
      removed: 0,
      patch: null,
      omitted: 'too_large',
    });
    expect(by.get('wide.txt')).toMatchObject({ added: 1, patch: null, omitted: 'too_large' });
    expect(by.get('small.txt')).toMatchObject({ added: 1, omitted: null });
    expect(by.get('small.txt')?.patch).toContain('+small\n');
  });

  it('lists the files past maxFiles without their patch', async () => {
    const d = repo();
    const start = await snapshotWorkTree(d);
    for (const n of ['f1', 'f2', 'f3']) writeFileSync(join(d, `${n}.txt`), `${n}\n`);
    const end = await snapshotWorkTree(d);
    const files = await diffTrees(d, start.tree, end.tree, { ...DEFAULT_DIFF_BOUNDS, maxFiles: 2 });
    expect(files.map((f) => [f.path, f.omitted])).toEqual([
      ['f1.txt', null],
      ['f2.txt', null],
      ['f3.txt', 'too_many_files'],
    ]);
  });

  it('answers "changes since base" from the merge base to the work tree now', async () => {
    const d = repo();
    git(d, 'checkout', '-q', '-b', 'agentteam/claude');
    writeFileSync(join(d, 'a.txt'), 'one\ntwo\nthree\ncommitted\n');
    git(d, 'commit', '-q', '-am', 'agent work');
    writeFileSync(join(d, 'b.txt'), 'keep\nuncommitted\n');
    const base = await mergeBase(d, 'main');
    expect(base).toBe(git(d, 'rev-parse', 'main').trim());
    const now = await snapshotWorkTree(d);
    const files = await diffTrees(d, base!, now.tree);
    expect(files.map((f) => [f.path, f.added, f.removed])).toEqual([
      ['a.txt', 1, 0],
      ['b.txt', 1, 0],
    ]);
  });
});
