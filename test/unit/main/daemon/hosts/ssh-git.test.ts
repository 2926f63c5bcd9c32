/**
 * issue 43: the remote commands of the daemon's git on an agent's host (hosts/ssh-git.ts). Each is
 * run here by a POSIX `sh -c`, as the remote login shell runs what ssh hands it, with a program
 * that prints what it received: every word arrives unchanged (no shell text from a path, value or
 * message), the hardened variables arrive, and the inherited `GIT_*` (but the identity), `PAGER`
 * and `SSH_ASKPASS` of the host's environment are gone.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REMOTE_FS_SCRIPTS, remoteFsCommand, remoteGitCommand } from '../../../../../main/daemon/hosts/ssh-git.js';

let dir: string;
let printer: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ssh-git-'));
  printer = join(dir, 'print-args');
  // Prints its folder, each argument and the variables the test looks at, NUL-separated.
  writeFileSync(
    printer,
    '#!/bin/sh\nprintf "%s\\0" "$PWD" "$@"; env | grep -E "^(GIT_|PAGER=|SSH_ASKPASS=|KEEP=)" | sort | tr "\\n" "\\0"\n',
  );
  chmodSync(printer, 0o755);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What the remote login shell does with `command`, in an environment like a host's. */
const remoteShell = (command: string, input?: string) =>
  spawnSync('sh', ['-c', command], {
    encoding: 'utf8',
    input: input ?? '',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      GIT_DIR: '/evil/git-dir',
      GIT_EXEC_PATH: '/evil/exec',
      GIT_CONFIG_PARAMETERS: "'core.fsmonitor=/evil/monitor'",
      GIT_AUTHOR_NAME: 'Host Person',
      PAGER: '/evil/pager',
      SSH_ASKPASS: '/evil/askpass',
      KEEP: 'kept',
    },
  });

const HOSTILE = ["it's", '$(touch PWNED)', '`touch PWNED`', 'a b', 'new\nline', '--upload-pack=touch PWNED', ';', ''];

describe('remote git command (issue 43)', () => {
  it('passes every argument, the folder and the hardened variables unchanged, and runs nothing they contain', () => {
    const folder = join(dir, "repo 'x' $(touch PWNED)");
    mkdirSync(folder);
    const argv = ['-c', 'core.fsmonitor=false', 'commit', '-m', ...HOSTILE];
    const r = remoteShell(
      remoteGitCommand(folder, printer, argv, { GIT_CONFIG_GLOBAL: '/dev/null', GIT_EDITOR: ':', LC_ALL: "C'; x" }),
    );
    expect(r.status).toBe(0);
    const out = r.stdout.split('\0');
    expect(out.slice(0, 1 + argv.length)).toEqual([folder, ...argv]);
    const env = out.slice(1 + argv.length).filter((l) => l !== '');
    expect(env).toEqual(['GIT_AUTHOR_NAME=Host Person', 'GIT_CONFIG_GLOBAL=/dev/null', 'GIT_EDITOR=:', 'KEEP=kept']);
    expect(existsSync(join(dir, 'PWNED'))).toBe(false);
    expect(existsSync(join(folder, 'PWNED'))).toBe(false);
  });

  it('a folder that is not there: git status 128 and a sentence naming it, the program never run', () => {
    const r = remoteShell(remoteGitCommand(join(dir, 'gone'), printer, ['status'], {}));
    expect(r.status).toBe(128);
    expect(r.stderr).toContain(`agentteam: no folder ${join(dir, 'gone')} on this host`);
    expect(r.stdout).toBe('');
  });

  it('refuses a variable name or a program that env would read as something else', () => {
    expect(() => remoteGitCommand('/', 'git', [], { 'A=B': 'x' })).toThrow(/not an environment variable name/);
    expect(() => remoteGitCommand('/', '-i', [], {})).toThrow(/cannot be run by env/);
  });
});

describe('remote file steps (issue 43)', () => {
  const step = (name: keyof typeof REMOTE_FS_SCRIPTS, words: string[], input?: string) =>
    remoteShell(remoteFsCommand(REMOTE_FS_SCRIPTS[name], words), input);

  it('writes, reads, copies with times, stamps and removes a path holding shell text, as that path', () => {
    const path = join(dir, "f '$(touch PWNED)'; `touch PWNED`");
    expect(step('writeFile', [path], 'gitdir: /x\n').status).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('gitdir: /x\n');
    expect(step('readSmallFile', [path]).stdout).toBe('gitdir: /x\n');
    expect(step('exists', [path]).status).toBe(0);
    execFileSync('touch', ['-d', '2001-02-03 04:05:06', path]);
    const copy = `${path}.copy`;
    expect(step('copyFile', [path, copy]).status).toBe(0);
    expect(step('stamp', [copy]).stdout).toMatch(/:2001-02-03 04:05:06/);
    expect(step('copyFile', [join(dir, 'none'), copy]).status).not.toBe(0);
    expect(step('stamp', [join(dir, 'none')]).stdout).toBe(`${join(dir, 'none')}:none\n`);
    expect(step('rm', [path]).status).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(join(dir, 'PWNED'))).toBe(false);
  });

  it('a symlink is not a small file; a missing path resolves under its real parent; a new temp folder is private', () => {
    const link = join(dir, 'link');
    execFileSync('ln', ['-s', printer, link]);
    expect(step('readSmallFile', [link]).status).not.toBe(0);
    expect(step('real', [join(link, '..', 'new', 'x')]).stdout.trim()).toBe(join(dir, 'new', 'x'));
    expect(step('nonEmptyDir', [dir]).status).toBe(0);
    expect(step('nonEmptyDir', [join(dir, 'new')]).status).not.toBe(0);
    const temp = step('tempDir', ['agentteam-test-']).stdout.trim();
    try {
      expect(temp).toMatch(/agentteam-test-\w{8}$/);
      expect(execFileSync('stat', ['-c', '%a', temp], { encoding: 'utf8' }).trim()).toBe('700');
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
