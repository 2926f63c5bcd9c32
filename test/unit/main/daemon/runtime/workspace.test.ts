import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareWorkspace, workspaceOf } from '../../../../../main/daemon/runtime/workspace.js';

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
});
