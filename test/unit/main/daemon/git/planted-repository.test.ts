/**
 * issue 41 (high): the daemon's git runs nothing a repository names. A workspace and an agent's
 * worktree are planted, one vector at a time, with a program that writes a marker file (fsmonitor,
 * hooks, a hooks folder, a clean/smudge filter, textconv / diff / external diff, a merge driver,
 * an include of an fsmonitor, pager / gpg signing / editor / ssh command); then a wake's two
 * snapshots (the real WakeChanges service), "changes since base", the worktree's changes, a
 * merge (a real three-way merge of one file into the person's checkout) and a discard run, and
 * the marker must not exist. Real git in temp dirs; own HOME, no system or global git config.
 * A worktree whose `.git` file an agent pointed at a git dir of its own is refused by merge and
 * discard (before the fix: "merged" while nothing reached the base).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentConfigSchema, type AgentConfig } from '../../../../../shared/config.js';
import { WakeChanges, type WakeChangesTablePort } from '../../../../../main/daemon/worktrees/wake-changes.js';
import { WorktreeService, type WorktreeError } from '../../../../../main/daemon/worktrees/worktree-service.js';
import type { WakeChangesRecord } from '../../../../../main/daemon/store/tables/wake-changes-table.js';
import type { WakeStatusEvent } from '../../../../../main/daemon/wake/wake-status-event.js';
import type { WakeStatus } from '../../../../../shared/wake-status.js';
import { runGit } from '../../../../../main/daemon/git/git-cli.js';
import { gitIn } from '../../../../fixtures/git-repo.js';

let base: string;
let marker: string;
let probe: string;
const saved = { HOME: process.env.HOME };

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'planted-repo-')));
  mkdirSync(join(base, 'home'));
  process.env.HOME = join(base, 'home');
  marker = join(base, 'MARKER');
  probe = join(base, 'probe.sh');
  // Records who ran it, then passes its input through (a filter or a pager would).
  writeFileSync(probe, `#!/bin/sh\necho "$*" >> '${marker}'\ncat\n`);
  chmodSync(probe, 0o755);
});
afterEach(() => {
  process.env.HOME = saved.HOME;
  rmSync(base, { recursive: true, force: true });
});

const run = (what: string): string => `sh '${probe}' ${what}`;
const HOOKS = [
  'pre-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-merge-commit',
  'post-merge',
  'post-checkout',
  'post-rewrite',
  'reference-transaction',
  'post-index-change',
  'pre-auto-gc',
];

function hooksIn(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const hook of HOOKS) {
    writeFileSync(join(dir, hook), `#!/bin/sh\nsh '${probe}' hook-${hook}\n`);
    chmodSync(join(dir, hook), 0o755);
  }
}

/** How a vector is planted in the repository's common git dir (what an agent that can write `.git` does). */
interface Vector {
  readonly name: string;
  readonly plant: (gitDir: string) => void;
  /** A filter or merge driver: merge and discard refuse, naming the key, rather than run or silently skip it. */
  readonly refusesWrites?: RegExp;
}

const config = (gitDir: string, ...kv: Array<[string, string]>): void => {
  for (const [k, v] of kv) gitIn(gitDir, 'config', '--file', join(gitDir, 'config'), k, v);
};
const attributes = (gitDir: string, line: string): void => {
  mkdirSync(join(gitDir, 'info'), { recursive: true });
  writeFileSync(join(gitDir, 'info', 'attributes'), `${line}\n`);
};

const VECTORS: Vector[] = [
  { name: 'core.fsmonitor', plant: (g) => config(g, ['core.fsmonitor', run('fsmonitor')]) },
  { name: 'hooks in .git/hooks', plant: (g) => hooksIn(join(g, 'hooks')) },
  {
    name: 'core.hooksPath',
    plant: (g) => {
      hooksIn(join(g, 'elsewhere-hooks'));
      config(g, ['core.hooksPath', join(g, 'elsewhere-hooks')]);
    },
  },
  {
    name: 'a clean/smudge filter named by attributes',
    plant: (g) => {
      config(
        g,
        ['filter.evil.clean', run('clean')],
        ['filter.evil.smudge', run('smudge')],
        ['filter.evil.required', 'true'],
      );
      attributes(g, '* filter=evil');
    },
    refusesWrites: /filter\.evil\.(clean|smudge)/,
  },
  {
    name: 'textconv, a diff driver command and diff.external',
    plant: (g) => {
      config(
        g,
        ['diff.evil.textconv', run('textconv')],
        ['diff.evil.command', run('diff-command')],
        ['diff.external', run('diff-external')],
      );
      attributes(g, '* diff=evil');
    },
  },
  {
    name: 'a merge driver',
    plant: (g) => {
      config(g, ['merge.evil.driver', run('merge-driver %O %A %B')]);
      attributes(g, '* merge=evil');
    },
    refusesWrites: /merge\.evil\.driver/,
  },
  {
    name: 'include.path of a file with an fsmonitor',
    plant: (g) => {
      writeFileSync(join(g, 'included'), `[core]\n\tfsmonitor = ${run('included-fsmonitor')}\n`);
      config(g, ['include.path', join(g, 'included')]);
    },
  },
  {
    name: 'pager, gpg signing, editor and ssh command',
    plant: (g) =>
      config(
        g,
        ['core.pager', run('pager')],
        ['pager.status', run('pager-status')],
        ['gpg.program', run('gpg')],
        ['commit.gpgSign', 'true'],
        ['merge.verifySignatures', 'true'],
        ['core.editor', run('editor')],
        ['core.sshCommand', run('ssh')],
      ),
  },
];

function memoryTable(): WakeChangesTablePort & { rows: Map<string, WakeChangesRecord> } {
  const rows = new Map<string, WakeChangesRecord>();
  return {
    rows,
    start(r) {
      rows.set(r.wakeToken, { ...r, endTree: null, files: [], startedAt: r.at, endedAt: null });
      return true;
    },
    end(r) {
      const rec = rows.get(r.wakeToken);
      if (rec === undefined) return false;
      rows.set(r.wakeToken, {
        ...rec,
        state: r.state,
        reason: r.reason,
        endTree: r.endTree,
        files: r.files,
        endedAt: r.at,
      });
      return true;
    },
    get: (wakeToken) => rows.get(wakeToken),
  };
}

const status = (wakeToken: string, s: WakeStatus): WakeStatusEvent =>
  ({ type: 'wake_status', wakeToken, agentId: 'alice', status: s }) as WakeStatusEvent;

/**
 * The person's checkout: `notes.txt` on main, branch agentteam/alice from the first commit, and a
 * second commit on main that changes another line of notes.txt (so merging alice is a real
 * three-way merge of that file). Made before anything is planted.
 */
function checkout(): string {
  const repo = join(base, 'project');
  mkdirSync(repo);
  gitIn(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'notes.txt'), 'one\ntwo\nthree\n');
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '-m', 'first');
  gitIn(repo, 'branch', 'agentteam/alice');
  writeFileSync(join(repo, 'notes.txt'), 'one\ntwo\nTHREE\n');
  gitIn(repo, 'commit', '-q', '-am', 'person');
  return repo;
}

const agentOf = (cwd: string): AgentConfig =>
  AgentConfigSchema.parse({ id: 'alice', name: 'alice', runtime: 'demo', cwd, isolation: 'worktree' });

function worktreeService(a: AgentConfig) {
  const dataDir = join(base, 'data');
  mkdirSync(dataDir, { recursive: true });
  return new WorktreeService({ dataDir, turnRunning: () => false, agent: (id) => (id === a.id ? a : undefined) });
}

async function failure(p: Promise<unknown>): Promise<WorktreeError> {
  try {
    await p;
  } catch (err) {
    return err as WorktreeError;
  }
  throw new Error('expected a failure');
}

const planted = (): string => (existsSync(marker) ? readFileSync(marker, 'utf8') : '');

describe.each(VECTORS)('a repository planted with $name runs nothing planted', (vector) => {
  it('through a wake (both snapshots, workspace and worktree), changes since base, changes, merge and discard', async () => {
    const repo = checkout();
    const a = agentOf(repo);
    const worktrees = worktreeService(a);
    // The worktree is made (git worktree add checks files out) with the plant in place; a filter
    // or merge driver is planted once it exists (with one, the daemon refuses to check files out).
    if (vector.refusesWrites === undefined) vector.plant(join(repo, '.git'));
    const cwd = await worktrees.prepare(a);
    if (vector.refusesWrites !== undefined) vector.plant(join(repo, '.git'));

    // A wake of the agent in its worktree and one in the person's checkout (a non-isolated workspace).
    for (const [workspace, worktreeOf] of [
      [cwd, worktrees.worktreeOf],
      [repo, () => null],
    ] as const) {
      const table = memoryTable();
      const statuses = new Subject<WakeStatusEvent>();
      const changes = new WakeChanges({ table, wakeStatus$: statuses, workspaceOf: () => workspace, worktreeOf });
      changes.start();
      statuses.next(status('w1', 'delivered'));
      await changes.idle();
      writeFileSync(join(workspace, 'notes.txt'), 'ONE\ntwo\nthree\n');
      writeFileSync(join(workspace, 'new.txt'), 'new\n');
      statuses.next(status('w1', 'reply_sent'));
      await changes.idle();
      expect(table.rows.get('w1')).toMatchObject({ state: 'tracked' });
      expect(
        table.rows
          .get('w1')
          ?.files.map((f) => f.path)
          .sort(),
      ).toEqual(workspace === repo ? ['new.txt', 'notes.txt'] : ['new.txt', 'notes.txt']);
      if (workspace === cwd) expect((await worktrees.sinceBase('alice')).files.length).toBe(2);
      await changes.dispose();
    }
    // The person's checkout back as it was (by the test's own git, with the plant switched off).
    writeFileSync(join(repo, 'notes.txt'), 'one\ntwo\nTHREE\n');
    rmSync(join(repo, 'new.txt'));

    const c = await worktrees.changes('alice');
    expect(c.uncommitted.map((f) => f.path).sort()).toEqual(['new.txt', 'notes.txt']);

    if (vector.refusesWrites !== undefined) {
      expect((await failure(worktrees.merge('alice'))).message).toMatch(vector.refusesWrites);
      expect((await failure(worktrees.discard('alice'))).message).toMatch(vector.refusesWrites);
    } else {
      const merged = await worktrees.merge('alice', 'work');
      expect(merged).toMatchObject({ kind: 'merged', how: 'merge-commit', committed: true });
      expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('ONE\ntwo\nTHREE\n');
      writeFileSync(join(cwd, 'later.txt'), 'later\n');
      const discarded = await worktrees.discard('alice');
      expect(discarded.commit).toBe(gitIn(repo, 'rev-parse', 'main').trim());
      expect(existsSync(join(cwd, 'later.txt'))).toBe(false);
    }
    expect(planted()).toBe('');
  });
});

describe('a worktree whose .git file an agent pointed elsewhere', () => {
  it('merge and discard refuse it, naming the file and how to restore it; nothing is committed anywhere', async () => {
    const repo = checkout();
    const a = agentOf(repo);
    const worktrees = worktreeService(a);
    const cwd = await worktrees.prepare(a);
    const pinned = readFileSync(join(cwd, '.git'), 'utf8').trim();
    writeFileSync(join(cwd, 'notes.txt'), 'ONE\ntwo\nthree\n');
    // The agent makes a git dir of its own and points its worktree at it.
    const decoy = join(base, 'decoy');
    mkdirSync(decoy);
    gitIn(decoy, 'init', '-q', '-b', 'agentteam/alice');
    writeFileSync(join(cwd, '.git'), `gitdir: ${join(decoy, '.git')}\n`);
    const mainBefore = gitIn(repo, 'rev-parse', 'main');
    const branchBefore = gitIn(repo, 'rev-parse', 'agentteam/alice');

    const merge = await failure(worktrees.merge('alice'));
    expect(merge.code).toBe('worktree_invalid');
    expect(merge.message).toContain(`${join(cwd, '.git')} no longer points at its git dir`);
    expect(merge.message).toContain(pinned);
    const discard = await failure(worktrees.discard('alice'));
    expect(discard.message).toContain(`${join(cwd, '.git')} no longer points at its git dir`);
    expect(gitIn(repo, 'rev-parse', 'main')).toBe(mainBefore);
    expect(gitIn(repo, 'rev-parse', 'agentteam/alice')).toBe(branchBefore);
    expect(gitIn(decoy, 'log', '--all', '--oneline')).toBe('');
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('ONE\ntwo\nthree\n');

    // Restored as the message says, merge works again.
    writeFileSync(join(cwd, '.git'), `${pinned}\n`);
    expect(await worktrees.merge('alice', 'work')).toMatchObject({ kind: 'merged', committed: true });
  });
});

describe('the hardened runner itself', () => {
  it("keeps only the allowlisted keys of the person's global config, and follows no inherited GIT_DIR", async () => {
    writeFileSync(
      join(base, 'home', '.gitconfig'),
      `[user]\n\tname = Person Global\n[core]\n\tfsmonitor = ${run('global-fsmonitor')}\n\texcludesFile = ~/ignore\n[alias]\n\tst = !${run('alias')}\n`,
    );
    const repo = join(base, 'r');
    mkdirSync(repo);
    gitIn(repo, 'init', '-q', '-b', 'main');
    const global = await runGit(['config', '--global', '--list'], { cwd: repo });
    expect(global.stdout.split('\n').filter((l) => l !== '')).toEqual([
      'user.name=Person Global',
      'core.excludesfile=~/ignore',
    ]);
    const decoy = join(base, 'decoy');
    mkdirSync(decoy);
    gitIn(decoy, 'init', '-q', '-b', 'decoy');
    process.env.GIT_DIR = join(decoy, '.git');
    try {
      expect((await runGit(['symbolic-ref', '--short', 'HEAD'], { cwd: repo })).stdout.trim()).toBe('main');
    } finally {
      delete process.env.GIT_DIR;
    }
    expect(planted()).toBe('');
  });

  it('refuses, naming it, a program key it cannot override on a command line', async () => {
    const repo = join(base, 'r');
    mkdirSync(repo);
    gitIn(repo, 'init', '-q', '-b', 'main');
    writeFileSync(
      join(repo, '.git', 'config'),
      `${readFileSync(join(repo, '.git', 'config'), 'utf8')}[diff "a=b"]\n\ttextconv = ${run('textconv')}\n`,
    );
    const r = await runGit(['status', '--porcelain'], { cwd: repo });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('"diff.a=b.textconv"');
    expect(planted()).toBe('');
  });
});
