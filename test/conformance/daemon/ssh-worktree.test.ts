/**
 * issue 43 "a worktree agent over SSH merges into the remote repository": Claude Code on the test
 * sshd's host (test/fixtures/sshd.ts: a second local user as the "remote"), `"isolation":
 * "worktree"`, its `cwd` a repository the remote user owns in its home. The daemon makes the
 * agent's worktree on that host (git over the host's master connection, the hardened runner);
 * the agent edits a file there through its shell tool during a wake; the wake's changes and
 * "changes since base" are read from the host; the merge lands the commit in the remote
 * repository — checked with git run as the remote user on the host's repository.
 *
 * issue 41 on the host: the remote repository is planted (core.fsmonitor, hooks) with a program
 * that records who ran it. Claude Code's own git may run it (it is the agent's program, run as
 * the agent); the daemon's git — recognisable by its hardened environment — never does.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../main/daemon/project-root.js';
import { DaemonHarness } from '../../fixtures/daemon-harness.js';
import { startBudgetMs } from '../../fixtures/load-budget.js';
import { REMOTE_USER, startSshd, sshdUnavailable, type TestSshd } from '../../fixtures/sshd.js';
import { allowEachAfterSnapshot, changesWhen } from '../../fixtures/wake-changes-watch.js';

const unavailable = sshdUnavailable();
const CLAUDE_BIN = join(projectRoot(), 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
const AFTER_START = Math.max(60_000, startBudgetMs('claude-code'));

/** A shell script run as the remote user in its home (`$1`… its words). */
function asRemote(script: string, ...words: string[]): string {
  return execFileSync('runuser', ['-u', REMOTE_USER, '--', 'sh', '-c', `cd "$HOME" && ${script}`, 'sh', ...words], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
  });
}

/** The hooks the planted repository carries (each records its name, like the fsmonitor). */
const HOOKS = [
  'pre-commit',
  'post-commit',
  'post-merge',
  'post-checkout',
  'reference-transaction',
  'post-index-change',
];

/**
 * What the daemon's git sets on the host (git-cli.ts `hardenedEnv`), as the planted program
 * records it: a line starting so was run by the daemon's git.
 */
const DAEMON_SIGNATURE = '1:/dev/null:0:';

describe.skipIf(unavailable !== null)(
  `a worktree agent over SSH (issue 43)${unavailable === null ? '' : ` — ${unavailable}`}`,
  () => {
    let sshd: TestSshd;
    let h: DaemonHarness;
    let repo: string;
    let home: string;
    let remoteCli: string;

    beforeAll(async () => {
      sshd = await startSshd();
      repo = sshd.remoteDir('wt-repo');
      home = asRemote('printf %s "$HOME"');
      asRemote(
        [
          // The default worktrees folder on the host (a run before this one may have left its worktree there).
          'rm -rf wt-marker .agentteam-worktrees',
          // Records who ran it: the daemon's git has GIT_CONFIG_NOSYSTEM=1, GIT_CONFIG_GLOBAL=/dev/null, GIT_PROTOCOL_FROM_USER=0.
          `printf '%s\\n' '#!/bin/sh' 'printf "%s:%s:%s:%s\\n" "$GIT_CONFIG_NOSYSTEM" "$GIT_CONFIG_GLOBAL" "$GIT_PROTOCOL_FROM_USER" "$*" >> "$HOME/wt-marker"' > plant.sh`,
          'chmod 755 plant.sh',
          'cd "$1"',
          'git init -q -b main',
          `printf 'one\\ntwo\\nthree\\n' > a.txt`,
          'git add -A',
          'git -c user.name=Person -c user.email=person@example.com commit -q -m init',
          'git config core.fsmonitor "$HOME/plant.sh fsmonitor"',
          `for h in ${HOOKS.join(' ')}; do printf '#!/bin/sh\\n"$HOME/plant.sh" hook-%s\\n' "$h" > .git/hooks/$h; chmod 755 .git/hooks/$h; done`,
        ].join(' && '),
        repo,
      );
      // A path of its own (ssh-host.test.ts may run beside this file and counts the remote user's
      // processes of its CLI by path), and an agent id of its own (its runtime folder on the host).
      remoteCli = join(sshd.remoteDir('wt-cli'), 'claude');
      asRemote('ln -s "$1" "$2"', sshd.reachable(CLAUDE_BIN), remoteCli);
      h = await DaemonHarness.start('claude-code', {
        leadId: 'claude-wt',
        ssh: { configFile: sshd.configFile },
        agentConfig: { host: sshd.address, cwd: repo, command: remoteCli, isolation: 'worktree' },
      });
      await h.ready(AFTER_START);
    }, AFTER_START + 30_000);

    afterAll(async () => {
      await h?.dispose();
      await sshd?.close();
      if (unavailable === null)
        asRemote('rm -rf wt-repo wt-cli wt-marker plant.sh .agentteam-worktrees .agentteam/runtimes/claude-wt');
    }, 60_000);

    it.sequential(
      'the agent edits its worktree on the host; the wake’s changes and changes since base come from there; merge lands in the remote repository',
      async () => {
        // The CLI runs on the host, as the remote user, from this file's own path.
        expect(sshd.remoteProcesses(remoteCli).length).toBeGreaterThan(0);
        const worktree = `${home}/.agentteam-worktrees/${h.agentId}`;
        // The worktree is on the host, of the remote repository, on the agent's branch.
        expect(asRemote('git -C "$1" worktree list --porcelain', repo)).toContain(`worktree ${worktree}\nHEAD `);
        const answering = allowEachAfterSnapshot(h.daemon);
        try {
          const { wakeToken } = await h.send('#ssh-wt', '[[shell:sed -i s/two/TWO/ a.txt]] change the second line');
          expect((await h.terminal(wakeToken, 90_000)).status).toBe('reply_sent');
          await h.idle(30_000);
          const changes = await changesWhen(h.daemon, wakeToken, (c) => c.state !== 'pending');
          expect(changes).toMatchObject({ state: 'tracked', workspace: worktree, reason: null });
          expect(changes.files.map(({ path, status, added, removed }) => ({ path, status, added, removed }))).toEqual([
            { path: 'a.txt', status: 'modified', added: 1, removed: 1 },
          ]);
          expect(changes.files[0]?.patch).toContain('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n');
        } finally {
          answering.unsubscribe();
        }
        // The edit is in the worktree on the host; the person's checkout there is untouched until the merge.
        expect(asRemote('cat "$1"/a.txt', worktree)).toBe('one\nTWO\nthree\n');
        expect(asRemote('cat "$1"/a.txt', repo)).toBe('one\ntwo\nthree\n');

        const since = await h.api['agents.changes']({ agentId: h.agentId });
        expect(since).toMatchObject({ branch: `agentteam/${h.agentId}`, base: 'main', workspace: worktree });
        expect(since.files.map((f) => f.path)).toEqual(['a.txt']);
        expect(since.files[0]?.patch).toContain('-two\n+TWO\n');

        const merged = await h.api['worktree.merge']({ agentId: h.agentId, message: 'over SSH: second line' });
        expect(merged).toMatchObject({ kind: 'merged', how: 'fast-forward', committed: true });
        // In the remote repository, as its owner sees it.
        expect(asRemote('git -C "$1" log -1 --format=%s main', repo)).toBe('over SSH: second line\n');
        expect(asRemote('git -C "$1" show main:a.txt', repo)).toBe('one\nTWO\nthree\n');
        expect(asRemote('cat "$1"/a.txt', repo)).toBe('one\nTWO\nthree\n');
        expect(asRemote('git -C "$1" status --porcelain=v1 --untracked-files=all', repo)).toBe('');
      },
      240_000,
    );

    it.sequential('the planted fsmonitor and hooks of the remote repository never ran from the daemon’s git', () => {
      const lines = asRemote('cat wt-marker 2>/dev/null || true')
        .split('\n')
        .filter((l) => l !== '');
      expect(lines.filter((l) => l.startsWith(DAEMON_SIGNATURE))).toEqual([]);
    });
  },
);
