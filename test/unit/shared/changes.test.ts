/**
 * issue 26: what a discard would lose, named in the review pane's words — each `git status`
 * code of a real repository's uncommitted paths as the change status the UI translates.
 */
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { uncommittedStatus } from '../../../shared/changes.js';
import { uncommitted } from '../../../main/daemon/git/worktree.js';
import { makeGitRepo } from '../../fixtures/git-repo.js';

const repo = makeGitRepo({ 'kept.txt': 'k\n', 'gone.txt': 'g\n', 'staged-gone.txt': 's\n', 'moved.txt': 'm\n' });
afterAll(() => repo.remove());

it("names every kind of uncommitted path git status prints in the review pane's words", async () => {
  writeFileSync(join(repo.path, 'kept.txt'), 'k\nmore\n');
  unlinkSync(join(repo.path, 'gone.txt'));
  repo.git('rm', '-q', 'staged-gone.txt');
  renameSync(join(repo.path, 'moved.txt'), join(repo.path, 'renamed.txt'));
  repo.git('add', '-A', 'moved.txt', 'renamed.txt');
  writeFileSync(join(repo.path, 'new.txt'), 'n\n');
  writeFileSync(join(repo.path, 'staged-new.txt'), 'a new file\n');
  repo.git('add', 'staged-new.txt');
  const paths = await uncommitted(repo.path);
  if (!paths.ok) throw new Error(paths.message);
  const named = Object.fromEntries(paths.value.map((p) => [p.path, [p.status, uncommittedStatus(p.status)]]));
  expect(named).toEqual({
    'gone.txt': [' D', 'deleted'],
    'kept.txt': [' M', 'modified'],
    'new.txt': ['??', 'added'],
    'renamed.txt': ['R ', 'renamed'],
    'staged-gone.txt': ['D ', 'deleted'],
    'staged-new.txt': ['A ', 'added'],
  });
});
