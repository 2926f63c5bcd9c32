/**
 * issue 26: isolation per agent with real git repositories in temp dirs (own HOME per test, no
 * system or global git config): create / reuse / repair / report, merge (fast-forward into the
 * person's checkout, conflict leaves the base untouched), discard, refusal while a turn runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentConfigSchema, type AgentConfig } from '../../../../../shared/config.js';
import { LOCAL_GIT_HOST } from '../../../../../main/daemon/git/git-host.js';
import {
  defaultWorktreesDir,
  withGitReadiness,
  WorktreeService,
  type WorktreeError,
} from '../../../../../main/daemon/worktrees/worktree-service.js';

let base: string;
const saved = { HOME: process.env.HOME, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM };

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'worktree-service-')));
  mkdirSync(join(base, 'home'));
  process.env.HOME = join(base, 'home');
  process.env.GIT_CONFIG_NOSYSTEM = '1';
});
afterEach(() => {
  process.env.HOME = saved.HOME;
  if (saved.GIT_CONFIG_NOSYSTEM === undefined) delete process.env.GIT_CONFIG_NOSYSTEM;
  else process.env.GIT_CONFIG_NOSYSTEM = saved.GIT_CONFIG_NOSYSTEM;
  rmSync(base, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C' },
  }).trim();

/** The person's checkout: a repository on `main` with one commit. */
function checkout(): string {
  const repo = join(base, 'project');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'notes.txt'), 'one\ntwo\nthree\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  return repo;
}

const agent = (id: string, cwd: string, more: Partial<AgentConfig> = {}): AgentConfig =>
  AgentConfigSchema.parse({ id, name: id, runtime: 'demo', cwd, isolation: 'worktree', ...more });

function service(agents: AgentConfig[], running: Set<string> = new Set()) {
  const dataDir = join(base, 'data');
  mkdirSync(dataDir, { recursive: true });
  return new WorktreeService({
    dataDir,
    turnRunning: (id) => running.has(id),
    agent: (id) => agents.find((a) => a.id === id),
  });
}

async function failure(p: Promise<unknown>): Promise<WorktreeError> {
  try {
    await p;
  } catch (err) {
    return err as WorktreeError;
  }
  throw new Error('expected a failure');
}

describe('WorktreeService.prepare', () => {
  it('makes a worktree on agentteam/<id> from the current branch, beside (not inside) the data dir, and reuses it', async () => {
    const repo = checkout();
    const a = agent('alice', repo);
    const s = service([a]);
    const cwd = await s.prepare(a);
    const dir = defaultWorktreesDir(join(base, 'data'));
    expect(dir).toBe(join(base, 'data-worktrees'));
    expect(cwd).toBe(join(dir, 'alice'));
    expect(s.worktreeOf('alice')).toEqual({ path: cwd, branch: 'agentteam/alice', base: 'main', repoRoot: repo });
    expect(git(cwd, 'symbolic-ref', '--short', 'HEAD')).toBe('agentteam/alice');
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    // The person's checkout is untouched.
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(git(repo, 'symbolic-ref', '--short', 'HEAD')).toBe('main');

    // A restart (a new service) keeps the agent in its worktree, uncommitted work included; the
    // recorded base wins even when the person switched branches meanwhile.
    writeFileSync(join(cwd, 'draft.txt'), 'unsaved\n');
    git(repo, 'switch', '-q', '-c', 'elsewhere');
    const again = service([a]);
    expect(await again.prepare(a)).toBe(cwd);
    expect(again.worktreeOf('alice')?.base).toBe('main');
    expect(readFileSync(join(cwd, 'draft.txt'), 'utf8')).toBe('unsaved\n');
  });

  it('works in cwd’s place inside the worktree, and honours baseBranch', async () => {
    const repo = checkout();
    mkdirSync(join(repo, 'pkg'));
    writeFileSync(join(repo, 'pkg', 'a.txt'), 'a\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'pkg');
    git(repo, 'branch', 'release');
    const a = agent('bob', join(repo, 'pkg'), { baseBranch: 'release' });
    const s = service([a]);
    const cwd = await s.prepare(a);
    expect(cwd).toBe(join(base, 'data-worktrees', 'bob', 'pkg'));
    expect(s.worktreeOf('bob')?.base).toBe('release');
  });

  it('repairs a worktree whose folder was deleted: pruned and added again on its branch, its commits kept', async () => {
    const repo = checkout();
    const a = agent('alice', repo);
    const s = service([a]);
    const cwd = await s.prepare(a);
    writeFileSync(join(cwd, 'kept.txt'), 'kept\n');
    git(cwd, 'add', '-A');
    git(cwd, 'commit', '-q', '-m', 'agent work');
    rmSync(cwd, { recursive: true, force: true });
    expect(await service([a]).prepare(a)).toBe(cwd);
    expect(readFileSync(join(cwd, 'kept.txt'), 'utf8')).toBe('kept\n');
  });

  it('reports, never replaces, a folder in the worktree’s place that holds something else', async () => {
    const repo = checkout();
    const a = agent('alice', repo);
    const place = join(base, 'data-worktrees', 'alice');
    mkdirSync(place, { recursive: true });
    writeFileSync(join(place, 'precious.txt'), 'mine\n');
    const e = await failure(service([a]).prepare(a));
    expect(e.code).toBe('worktree_invalid');
    expect(e.message).toContain('agent "alice"');
    expect(e.message).toContain(place);
    expect(e.message).toContain('move it away');
    expect(readFileSync(join(place, 'precious.txt'), 'utf8')).toBe('mine\n');
  });

  it('refuses a cwd outside git, an unknown base branch and a worktreesDir inside the data dir or the checkout, naming agent and path', async () => {
    const plain = join(base, 'plain');
    mkdirSync(plain);
    const e1 = await failure(service([]).prepare(agent('carol', plain)));
    expect(e1.code).toBe('worktree_invalid');
    expect(e1.message).toMatch(/agent "carol".*must be inside a git repository/);
    expect(e1.message).toContain(plain);

    const repo = checkout();
    const e2 = await failure(service([]).prepare(agent('carol', repo, { baseBranch: 'nope' })));
    expect(e2.message).toContain('the base branch "nope" does not exist');

    const e3 = await failure(service([]).prepare(agent('carol', repo, { worktreesDir: join(base, 'data', 'wt') })));
    expect(e3.message).toMatch(/"worktreesDir" .* overlaps AgentTeam's data folder/);
    const e4 = await failure(service([]).prepare(agent('carol', repo, { worktreesDir: join(repo, '.wt') })));
    expect(e4.message).toMatch(/overlaps the checkout itself/);
    expect(existsSync(join(repo, '.wt'))).toBe(false);
  });

  it('an isolated agent without usable git neither starts nor shows ready', async () => {
    const repo = checkout();
    const a = agent('alice', repo);
    const s = new WorktreeService({
      dataDir: join(base, 'data'),
      turnRunning: () => false,
      agent: () => a,
      git: Promise.resolve({ usable: false, detail: 'git 2.20.0 is too old: install git 2.30 or newer' }),
    });
    const e = await failure(s.prepare(a));
    expect(e.code).toBe('git_unavailable');
    expect(e.message).toContain('2.30 or newer');
    const probe = withGitReadiness(
      async () => ({ outcome: 'ready', cliVersion: null, detail: null, checkedAt: 'now' }),
      () => s.git(),
    );
    expect((await probe(a)).outcome).toBe('cli_missing');
    expect((await probe({ ...a, isolation: 'none' })).outcome).toBe('ready');
    // issue 43: an agent on a host uses that host's git (its first call names a missing one), not this machine's.
    expect((await probe({ ...a, host: 'ssh://dev@box', cwd: '/srv/repo' })).outcome).toBe('ready');
  });
});

/**
 * issue 43: an agent with `host` gets its worktree from that host's git (`hostGitOf`), by the same
 * rules with the host's places. The "host" here is this machine's git with a home of the test's
 * own (the real SSH path is test/conformance/daemon/ssh-worktree.test.ts).
 */
describe('WorktreeService.prepare on an agent’s host', () => {
  const hostAgent = (cwd: string, more: Partial<AgentConfig> = {}) =>
    agent('far', cwd, { host: 'ssh://dev@box', runtime: 'claude-code', ...more });
  const onHost = (a: AgentConfig, home: string | null) =>
    new WorktreeService({
      dataDir: join(base, 'data'),
      turnRunning: () => false,
      agent: () => a,
      // This machine's git must not be asked for a host agent.
      git: Promise.resolve({ usable: false, detail: 'no git here' }),
      hostGitOf: () => (home === null ? null : { git: LOCAL_GIT_HOST, home: () => Promise.resolve(home) }),
    });

  it('makes the worktree in the host’s ~/.agentteam-worktrees, merges there; refuses a worktreesDir in ~/.agentteam', async () => {
    const repo = checkout();
    const home = join(base, 'remote-home');
    mkdirSync(home);
    const a = hostAgent(repo);
    const s = onHost(a, home);
    const cwd = await s.prepare(a);
    expect(cwd).toBe(join(home, '.agentteam-worktrees', 'far'));
    writeFileSync(join(cwd, 'notes.txt'), 'one\nTWO\nthree\n');
    expect(await s.merge('far', 'on the host')).toMatchObject({ kind: 'merged', how: 'fast-forward' });
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('one\nTWO\nthree\n');

    const inside = hostAgent(repo, { id: 'far', worktreesDir: join(home, '.agentteam', 'trees') });
    const e = await failure(onHost(inside, home).prepare(inside));
    expect(e.code).toBe('worktree_invalid');
    expect(e.message).toContain(
      `overlaps AgentTeam's data folder, where no agent may work (${join(home, '.agentteam')})`,
    );
  });

  it('without a way to the host, or without an absolute cwd there: refused with the fix', async () => {
    const repo = checkout();
    const a = hostAgent(repo);
    expect((await failure(onHost(a, null).prepare(a))).message).toContain('this daemon reaches no host');
    const relative = { ...a, cwd: 'project' };
    expect((await failure(onHost(relative, base).prepare(relative))).message).toContain(
      '"cwd" must be the absolute path of a folder of a git repository on that host',
    );
  });
});

describe('WorktreeService.merge / discard', () => {
  it('commits the agent’s work and fast-forwards main in the person’s checkout, which stays clean', async () => {
    const repo = checkout();
    const a = agent('alice', repo);
    const s = service([a]);
    const cwd = await s.prepare(a);
    writeFileSync(join(cwd, 'notes.txt'), 'one\nTWO\nthree\n');
    expect((await s.changes('alice')).uncommitted).toEqual([{ path: 'notes.txt', status: ' M' }]);
    const r = await s.merge('alice', 'Capitalise two');
    expect(r).toMatchObject({ kind: 'merged', how: 'fast-forward', committed: true });
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('Capitalise two');
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(await s.changes('alice')).toMatchObject({ uncommitted: [], commits: [] });
  });

  it('refuses to merge into a dirty person’s checkout, saying how to fix it', async () => {
    const repo = checkout();
    const a = agent('alice', repo);
    const s = service([a]);
    const cwd = await s.prepare(a);
    writeFileSync(join(cwd, 'new.txt'), 'agent\n');
    writeFileSync(join(repo, 'notes.txt'), 'person edits\n');
    const head = git(repo, 'rev-parse', 'main');
    const r = await s.merge('alice');
    expect(r.kind).toBe('refused');
    expect(r.kind === 'refused' && r.message).toMatch(/main is checked out in .*notes\.txt.*commit or stash/);
    expect(git(repo, 'rev-parse', 'main')).toBe(head);
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('person edits\n');
    // issue 40 item 9: the refused merge left the worktree as it was — its file uncommitted, the branch at the base.
    expect(git(cwd, 'status', '--porcelain')).toBe('?? new.txt');
    expect(git(cwd, 'rev-parse', 'HEAD')).toBe(head);
    expect(readFileSync(join(cwd, 'new.txt'), 'utf8')).toBe('agent\n');
  });

  it('two agents change the same line: the first merge succeeds, the second reports the conflict and leaves main untouched', async () => {
    const repo = checkout();
    const a = agent('alice', repo);
    const b = agent('bob', repo);
    const s = service([a, b]);
    const wa = await s.prepare(a);
    const wb = await s.prepare(b);
    writeFileSync(join(wa, 'notes.txt'), 'one\nalice\nthree\n');
    writeFileSync(join(wb, 'notes.txt'), 'one\nbob\nthree\n');
    expect((await s.merge('alice')).kind).toBe('merged');
    const head = git(repo, 'rev-parse', 'main');
    const r = await s.merge('bob', 'Bob’s version');
    expect(r.kind).toBe('conflict');
    if (r.kind !== 'conflict') return;
    expect(r.files).toEqual(['notes.txt']);
    expect(r.message).toContain('the merge was aborted and main is unchanged');
    expect(git(repo, 'rev-parse', 'main')).toBe(head);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('one\nalice\nthree\n');
    expect(existsSync(join(repo, '.git', 'MERGE_HEAD'))).toBe(false);
    // issue 40 item 9: Bob's worktree is as it was: his edit uncommitted, his branch where it started.
    expect(git(wb, 'status', '--porcelain')).toBe('M notes.txt');
    expect(git(wb, 'log', '--format=%s', '-1')).toBe('first');
    expect(readFileSync(join(wb, 'notes.txt'), 'utf8')).toBe('one\nbob\nthree\n');
  });

  it('merges with a merge commit into a base no checkout holds, without touching any checkout', async () => {
    const repo = checkout();
    git(repo, 'branch', 'release');
    const a = agent('alice', repo, { baseBranch: 'release' });
    const s = service([a]);
    const cwd = await s.prepare(a);
    writeFileSync(join(cwd, 'agent.txt'), 'agent\n');
    // release moves on meanwhile (another commit), so no fast-forward is possible.
    git(repo, 'switch', '-q', 'release');
    writeFileSync(join(repo, 'other.txt'), 'other\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'other');
    git(repo, 'switch', '-q', 'main');
    const r = await s.merge('alice');
    expect(r).toMatchObject({ kind: 'merged', how: 'merge-commit' });
    expect(git(repo, 'show', 'release:agent.txt')).toBe('agent');
    expect(git(repo, 'show', 'release:other.txt')).toBe('other');
    expect(git(repo, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(existsSync(join(repo, 'agent.txt'))).toBe(false);
  });

  it('discard resets the worktree and its branch to the base; both are refused while the turn runs', async () => {
    const repo = checkout();
    const a = agent('alice', repo);
    const running = new Set(['alice']);
    const s = service([a], running);
    const cwd = await s.prepare(a);
    writeFileSync(join(cwd, 'notes.txt'), 'changed\n');
    writeFileSync(join(cwd, 'untracked.txt'), 'x\n');
    const refused = await failure(s.discard('alice'));
    expect(refused.code).toBe('turn_running');
    expect(refused.message).toContain('is working on a turn');
    expect((await failure(s.merge('alice'))).code).toBe('turn_running');
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('changed\n');

    running.clear();
    git(cwd, 'add', 'notes.txt');
    git(cwd, 'commit', '-q', '-m', 'agent commit');
    expect((await s.changes('alice')).commits).toHaveLength(1);
    await s.discard('alice');
    expect(git(cwd, 'rev-parse', 'HEAD')).toBe(git(repo, 'rev-parse', 'main'));
    expect(git(cwd, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(cwd, 'untracked.txt'))).toBe(false);
  });

  it('refuses merge of an agent that is not isolated, with its reason', async () => {
    const a = AgentConfigSchema.parse({ id: 'plain', name: 'p', runtime: 'demo' });
    const e = await failure(service([a]).merge('plain'));
    expect(e.code).toBe('not_isolated');
    expect(e.message).toContain('"isolation" is "none"');
  });
});
