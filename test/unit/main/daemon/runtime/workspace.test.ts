import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeDenyArgs } from '../../../../../main/daemon/runtime/claude-code/claude-launch.js';
import { makeGitRepo } from '../../../../fixtures/git-repo.js';
import {
  gitMetadataPaths,
  prepareWorkspace,
  shellDeniedPaths,
  toolDeniedPaths,
  workspaceOf,
  workspaceOverlap,
} from '../../../../../main/daemon/runtime/workspace.js';

describe('workspace of an agent (issue 14)', () => {
  const dirs: string[] = [];
  const temp = () => {
    const d = mkdtempSync(join(tmpdir(), 'agentteam-ws-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('an agent that names no cwd works in its own folder, never in the data dir (which holds agentteam.json)', () => {
    const dataDir = temp();
    expect(workspaceOf('.', dataDir, 'claude')).toBe(join(dataDir, 'workspaces', 'claude'));
    expect(workspaceOf('.', dataDir, 'claude')).not.toBe(dataDir);
    expect(workspaceOf('project', dataDir, 'claude')).toBe(join(dataDir, 'project'));
    expect(workspaceOf('/srv/app', dataDir, 'claude')).toBe('/srv/app');
  });

  it('the default workspace is made owner-only at start; a configured one must exist', () => {
    const dataDir = temp();
    expect(prepareWorkspace('claude', '.', dataDir)).toBeNull();
    const made = statSync(join(dataDir, 'workspaces', 'claude'));
    expect(made.isDirectory()).toBe(true);
    expect(made.mode & 0o777).toBe(0o700);
    expect(prepareWorkspace('claude', join(dataDir, 'missing'), dataDir)).toMatch(
      /workspace of agent "claude" does not exist: .*missing/,
    );
    writeFileSync(join(dataDir, 'file'), 'x');
    expect(prepareWorkspace('claude', join(dataDir, 'file'), dataDir)).toMatch(/is not a folder/);
  });

  describe('never overlapping the data dir (issue 29)', () => {
    /** A home folder holding the default data dir, as on a person's machine. */
    const home = () => {
      const h = temp();
      const dataDir = join(h, '.config', 'agentteam', 'data');
      mkdirSync(join(dataDir, 'bin'), { recursive: true });
      mkdirSync(join(h, 'projects', 'app'), { recursive: true });
      return { h, dataDir };
    };

    it('cwd = $HOME (the everyday case) is refused: it contains the data dir; the message names both and the fix', () => {
      const { h, dataDir } = home();
      const message = prepareWorkspace('claude', h, dataDir);
      expect(message).toBe(
        `The workspace of agent "claude" (${h}) contains AgentTeam's data folder ${dataDir}, which holds agentteam.json, the approvals and grants and the tokens: ` +
          `an agent working there could change what it is allowed to do. Choose a project folder for agent "claude" (its "cwd" in agentteam.json, or Workspace in the agent's detail) that neither contains nor lies inside it.`,
      );
    });

    it("the data dir itself, a folder inside it (absolute or relative), another agent's default are refused", () => {
      const { dataDir } = home();
      mkdirSync(join(dataDir, 'workspaces', 'codex'), { recursive: true });
      expect(prepareWorkspace('claude', dataDir, dataDir)).toMatch(
        /^The workspace of agent "claude" is AgentTeam's data folder /,
      );
      expect(prepareWorkspace('claude', join(dataDir, 'bin'), dataDir)).toMatch(
        /\) lies inside AgentTeam's data folder /,
      );
      // A relative cwd resolves against agentteam.json's folder (the data dir): "bin" stays inside, so it is refused.
      expect(prepareWorkspace('claude', 'bin', dataDir)).toMatch(/lies inside AgentTeam's data folder/);
      expect(prepareWorkspace('claude', 'workspaces/codex', dataDir)).toMatch(/lies inside/);
      expect(prepareWorkspace('claude', join(dataDir, 'workspaces'), dataDir)).toMatch(/lies inside/);
    });

    it('compares after realpath: a symlink to the data dir is refused; a relative cwd that leaves the data dir is fine', () => {
      const { h, dataDir } = home();
      symlinkSync(dataDir, join(h, 'projects', 'sneaky'));
      expect(prepareWorkspace('claude', join(h, 'projects', 'sneaky'), dataDir)).toMatch(
        new RegExp(`^The workspace of agent "claude" is AgentTeam's data folder ${dataDir}`),
      );
      expect(prepareWorkspace('claude', '../../../projects/app', dataDir)).toBeNull();
      expect(prepareWorkspace('claude', join(h, 'projects', 'app'), dataDir)).toBeNull();
    });

    it("the agent's own default workspace stays allowed; the app's user-data folder is private too", () => {
      const { h, dataDir } = home();
      expect(prepareWorkspace('claude', '.', dataDir)).toBeNull();
      expect(prepareWorkspace('claude', 'workspaces/claude', dataDir)).toBeNull();
      const userData = join(h, '.config', 'agentteam');
      mkdirSync(join(userData, 'logs'));
      expect(workspaceOverlap('claude', join(userData, 'logs'), { dataDir, others: [userData] })).toMatch(
        /lies inside AgentTeam's app folder .*agentteam, which holds the data folder, settings and logs/,
      );
      expect(prepareWorkspace('claude', join(h, 'projects', 'app'), dataDir, [userData])).toBeNull();
    });
  });
});

describe("the data dir denied to the agents' tools (issue 29)", () => {
  it("lists every daemon entry (also those made later) and the other agents' workspaces, never the agent's own", () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agentteam-deny-'));
    try {
      mkdirSync(join(dataDir, 'workspaces', 'claude'), { recursive: true });
      mkdirSync(join(dataDir, 'workspaces', 'codex'), { recursive: true });
      mkdirSync(join(dataDir, 'runtimes', 'claude'), { recursive: true });
      writeFileSync(join(dataDir, 'agentteam.json'), '{}');
      writeFileSync(join(dataDir, 'agentteam.db-wal'), '');
      const denied = toolDeniedPaths(dataDir, 'claude');
      const d = realpathSync(dataDir);
      expect(denied).toEqual(
        expect.arrayContaining([
          join(d, 'agentteam.json'),
          join(d, 'agentteam.db'),
          join(d, 'agentteam.db-wal'),
          join(d, 'serve-token'),
          `${join(d, 'bin')}/`,
          `${join(d, 'runtimes')}/`,
          `${join(d, 'workspaces', 'codex')}/`,
        ]),
      );
      expect(denied.some((p) => p.startsWith(join(d, 'workspaces', 'claude')))).toBe(false);
      expect(denied).not.toContain(`${join(d, 'workspaces')}/`);
      // As Claude Code rules: `//` = from the filesystem root; a folder with its subtree.
      const args = claudeDenyArgs([join(d, 'serve-token'), `${join(d, 'bin')}/`]);
      expect(args[0]).toBe('--settings');
      expect(JSON.parse(args[1] ?? '{}')).toEqual({
        permissions: {
          deny: [
            `Read(/${join(d, 'serve-token')})`,
            `Edit(/${join(d, 'serve-token')})`,
            `Read(/${join(d, 'bin')}/**)`,
            `Edit(/${join(d, 'bin')}/**)`,
          ],
        },
      });
      expect(args[1]).toContain('"Read(//');
      expect(claudeDenyArgs([])).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("issue 41: a shell is denied the same but the shim's folder, which it runs from PATH", () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agentteam-deny-'));
    try {
      mkdirSync(join(dataDir, 'bin'), { recursive: true });
      const d = realpathSync(dataDir);
      const shell = shellDeniedPaths(dataDir, 'codex');
      expect(shell).toEqual(toolDeniedPaths(dataDir, 'codex').filter((p) => p !== `${join(d, 'bin')}/`));
      expect(shell).toEqual(
        expect.arrayContaining([join(d, 'serve-token'), join(d, 'operator-key'), `${join(d, 'runtimes')}/`]),
      );
      expect(shell).not.toContain(`${join(d, 'bin')}/`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("git metadata denied to Claude Code's file tools (issue 41)", () => {
  it('a checkout: its .git folder; a linked worktree: its .git file, its git dir and the common dir — as Edit deny rules only', () => {
    const repo = makeGitRepo({ 'a.txt': 'a\n' }, 'agentteam-gitdeny-');
    const wt = `${repo.path}-wt`;
    try {
      mkdirSync(join(repo.path, 'sub'));
      expect(gitMetadataPaths(join(repo.path, 'sub'))).toEqual([`${join(repo.path, '.git')}/`]);
      repo.git('worktree', 'add', '-q', wt);
      const paths = gitMetadataPaths(wt);
      expect(paths).toEqual([
        join(wt, '.git'),
        `${join(repo.path, '.git', 'worktrees', wt.split('/').pop()!)}/`,
        `${join(repo.path, '.git')}/`,
      ]);
      const args = claudeDenyArgs([], paths);
      expect(JSON.parse(args[1] ?? '{}')).toEqual({
        permissions: {
          deny: [
            `Edit(/${join(wt, '.git')})`,
            `Edit(/${join(repo.path, '.git', 'worktrees', wt.split('/').pop()!)}/**)`,
            `Edit(/${join(repo.path, '.git')}/**)`,
          ],
        },
      });
    } finally {
      repo.remove();
      rmSync(wt, { recursive: true, force: true });
    }
  });
});
