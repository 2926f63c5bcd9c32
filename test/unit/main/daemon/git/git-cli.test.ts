import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  GitError,
  gitVersion,
  gitVersionSupported,
  parseGitVersion,
  runGit,
  workTreeRoot,
} from '../../../../../main/daemon/git/git-cli.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'git-cli-')));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('parseGitVersion / gitVersionSupported', () => {
  it.each([
    ['git version 2.39.5', '2.39.5', true],
    ['git version 2.45.1.windows.1', '2.45.1', true],
    ['git version 2.39.3 (Apple Git-146)', '2.39.3', true],
    ['git version 2.29.0', '2.29.0', false],
    ['git version 3.0', '3.0.0', true],
  ])('%s → %s (supported: %s)', (output, text, supported) => {
    const v = parseGitVersion(output);
    expect(v?.text).toBe(text);
    expect(gitVersionSupported(v!)).toBe(supported);
  });

  it('answers null for what is not a version', () => {
    expect(parseGitVersion('command not found')).toBeNull();
  });
});

describe('runGit against the real git', () => {
  it('reports the installed version as supported', async () => {
    const v = await gitVersion();
    expect(gitVersionSupported(v)).toBe(true);
  });

  it('a failing command is an answer with its code and untranslated stderr, not an exception', async () => {
    const dir = tempDir();
    const r = await runGit(['status'], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/not a git repository/);
    expect(await workTreeRoot(dir)).toBeNull();
  });

  it('outside any repository the answer needs no git at all; with a .git above, git is asked (issue 30)', async () => {
    const dir = tempDir();
    const missing = join(dir, 'no-such-git');
    // No .git here or above (tmp): null without spawning (a missing binary would throw otherwise).
    expect(await workTreeRoot(dir, missing)).toBeNull();
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    mkdirSync(join(dir, 'sub'));
    await expect(workTreeRoot(join(dir, 'sub'), missing)).rejects.toMatchObject({ kind: 'git_missing' });
    expect(await workTreeRoot(join(dir, 'sub'))).toBe(dir);
  });

  it("an empty .git folder above (what Codex's sandbox leaves in /tmp) is not a repository; a .git file is", async () => {
    const dir = tempDir();
    const missing = join(dir, 'no-such-git');
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'work'));
    expect(await workTreeRoot(join(dir, 'work'), missing)).toBeNull();
    // A linked worktree's `.git` is a file pointing at its git dir: git is asked.
    writeFileSync(join(dir, 'work', '.git'), 'gitdir: /nowhere\n');
    await expect(workTreeRoot(join(dir, 'work'), missing)).rejects.toMatchObject({ kind: 'git_missing' });
  });

  it('runs in the repository, passes stdin and extra env (a temporary index leaves the real one alone)', async () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    expect(await workTreeRoot(dir)).toBe(dir);
    const index = join(tempDir(), 'index');
    const add = await runGit(['add', '-A'], { cwd: dir, env: { GIT_INDEX_FILE: index } });
    expect(add.code).toBe(0);
    const tree = await runGit(['write-tree'], { cwd: dir, env: { GIT_INDEX_FILE: index } });
    expect(tree.stdout.trim()).toMatch(/^[0-9a-f]{40}$/);
    // The repository's own index is untouched: nothing is staged there.
    const status = await runGit(['status', '--porcelain'], { cwd: dir });
    expect(status.stdout).toBe('?? a.txt\n');
    const hashed = await runGit(['hash-object', '--stdin'], { cwd: dir, input: 'one\n' });
    expect(hashed.stdout.trim()).toBe(
      execFileSync('git', ['hash-object', join(dir, 'a.txt')], { encoding: 'utf8' }).trim(),
    );
  });

  it('a missing binary, an oversized output and a timeout each throw a GitError naming it', async () => {
    const dir = tempDir();
    await expect(runGit(['--version'], { cwd: dir, binary: join(dir, 'no-such-git') })).rejects.toMatchObject({
      kind: 'git_missing',
    });
    await expect(runGit(['--help'], { cwd: dir, maxBytes: 10 })).rejects.toBeInstanceOf(GitError);
    await expect(runGit(['--help'], { cwd: dir, maxBytes: 10 })).rejects.toMatchObject({
      kind: 'git_output_too_large',
    });
    // No git process starts, runs and exits within 1 ms, so the budget always runs out first.
    await expect(runGit(['help', '-a'], { cwd: dir, timeoutMs: 1 })).rejects.toMatchObject({ kind: 'git_timeout' });
  });
});
