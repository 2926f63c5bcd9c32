/**
 * issue 14: an agent's workspace and policy chosen in the UI, and a revoked "always" rule — the
 * validation (the start check plus "absolute"), the minimal write through the real config source
 * (only that key; the person's layout kept), and when the agent is restarted.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentConfig } from '../../../../../shared/config.js';
import { AgentGrants } from '../../../../../main/daemon/approvals/agent-grants.js';
import { ConfigSource } from '../../../../../main/daemon/config/config-source.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { checkChosenWorkspace } from '../../../../../main/daemon/runtime/workspace.js';
import { AgentSettings } from '../../../../../main/daemon/services/agent-settings.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

// The person's own layout: 4-space indent, one agent per line, their key order.
const PERSON = [
  '{',
  '    "agents": [',
  '        { "id": "demo", "name": "Demo", "runtime": "demo" },',
  '        { "runtime": "claude-code", "id": "claude", "name": "Claude", "allow": ["Bash(ls)", "Bash(npm test)"] }',
  '    ]',
  '}',
  '',
].join('\n');

let dir: TempDir;
let source: ConfigSource;
let store: Store;
let grants: AgentGrants;
let restarts: Array<{ agent: AgentConfig; workspaceChanged: boolean }>;
let settings: AgentSettings;
const file = () => join(dir.path, 'data', 'agentteam.json');
const dirs = () => ({ dataDir: join(dir.path, 'data') });

beforeEach(() => {
  dir = makeTempDir('agentteam-agent-settings-');
  mkdirSync(join(dir.path, 'data'));
  mkdirSync(join(dir.path, 'project'));
  writeFileSync(join(dir.path, 'notes.txt'), 'a file');
  writeFileSync(file(), PERSON);
  source = ConfigSource.open(join(dir.path, 'data'));
  store = Store.open(join(dir.path, 'data'));
  grants = new AgentGrants({ table: store.grants, file: source });
  grants.start();
  restarts = [];
  settings = new AgentSettings({
    source,
    grants,
    privateDirs: { dataDir: join(dir.path, 'data') },
    restart: (agent, change) => restarts.push({ agent, workspaceChanged: change.workspaceChanged }),
  });
});
afterEach(() => {
  grants.dispose();
  store.close();
  source.close();
  dir.remove();
});

describe('checkChosenWorkspace', () => {
  it('accepts an absolute existing folder, normalized', () => {
    expect(checkChosenWorkspace('claude', ` ${join(dir.path, 'project')}/ `, dirs())).toEqual({
      ok: true,
      path: join(dir.path, 'project'),
    });
  });
  it.each([
    ['relative/project', /must be a full \(absolute\) path to a folder: "relative\/project" is not/],
    ['.', /must be a full \(absolute\) path/],
  ])('refuses the relative %j', (path, message) => {
    const r = checkChosenWorkspace('claude', path, dirs());
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(message);
  });
  it('refuses a missing path and a file, naming the agent and the path (the start check)', () => {
    const missing = join(dir.path, 'nope');
    const r1 = checkChosenWorkspace('claude', missing, dirs());
    expect(!r1.ok && r1.message).toContain(`The workspace of agent "claude" does not exist: ${missing}`);
    const r2 = checkChosenWorkspace('claude', join(dir.path, 'notes.txt'), dirs());
    expect(!r2.ok && r2.message).toContain(`is not a folder: ${join(dir.path, 'notes.txt')}`);
  });
});

describe('checkChosenWorkspace: never the data dir (issue 29)', () => {
  it('refuses the data dir, a folder inside it and one containing it, naming the agent, both paths and the fix; nothing is written', () => {
    const data = join(dir.path, 'data');
    mkdirSync(join(data, 'bin'));
    const before = readFileSync(file(), 'utf8');
    for (const [cwd, how] of [
      [data, "is AgentTeam's data folder"],
      [join(data, 'bin'), "lies inside AgentTeam's data folder"],
      [dir.path, "contains AgentTeam's data folder"],
    ] as const) {
      const r = checkChosenWorkspace('claude', cwd, dirs());
      expect(!r.ok && r.message).toContain(`The workspace of agent "claude"`);
      expect(!r.ok && r.message).toContain(how);
      expect(!r.ok && r.message).toContain(data);
      expect(!r.ok && r.message).toContain('Choose a project folder for agent "claude"');
      expect(() => settings.update('claude', { cwd })).toThrow(/Nothing was changed/);
    }
    expect(readFileSync(file(), 'utf8')).toBe(before);
    expect(restarts).toEqual([]);
  });
});

describe('AgentSettings.update', () => {
  it('writes only the changed keys into that agent, keeps every other byte, and restarts it with the file entry', () => {
    const project = join(dir.path, 'project');
    expect(settings.update('claude', { cwd: project, permissions: 'auto-edit' })).toBe(true);
    expect(readFileSync(file(), 'utf8')).toBe(
      PERSON.replace(
        '"allow": ["Bash(ls)", "Bash(npm test)"] }',
        `"allow": ["Bash(ls)", "Bash(npm test)"], "cwd": ${JSON.stringify(project)}, "permissions": "auto-edit" }`,
      ),
    );
    expect(restarts).toEqual([
      { agent: expect.objectContaining({ id: 'claude', cwd: project }), workspaceChanged: true },
    ]);
    // The policy alone: a restart, but the workspace (and so the session) is the same.
    expect(settings.update('claude', { permissions: 'read-only' })).toBe(true);
    expect(restarts.at(-1)).toMatchObject({ agent: { permissions: 'read-only' }, workspaceChanged: false });
    // Nothing different: nothing written, no restart.
    const text = readFileSync(file(), 'utf8');
    expect(settings.update('claude', { cwd: project, permissions: 'read-only' })).toBe(false);
    expect(readFileSync(file(), 'utf8')).toBe(text);
    expect(restarts).toHaveLength(2);
  });

  it('a bad workspace or an unknown agent is refused with a stable code; nothing is written, nothing restarts', () => {
    expect(() => settings.update('claude', { cwd: join(dir.path, 'nope') })).toThrow(
      expect.objectContaining({ code: 'workspace_invalid', message: expect.stringMatching(/Nothing was changed/) }),
    );
    expect(() => settings.update('nobody', { permissions: 'ask' })).toThrow(
      expect.objectContaining({ code: 'unknown_agent' }),
    );
    expect(readFileSync(file(), 'utf8')).toBe(PERSON);
    expect(restarts).toEqual([]);
  });

  it('refuses to write while agentteam.json holds an edit that cannot be used (the person’s text is kept)', () => {
    const broken = PERSON.replace('"Claude"', '"Claude",');
    writeFileSync(file(), broken);
    expect(() => settings.update('claude', { permissions: 'full' })).toThrow(
      expect.objectContaining({ code: 'config_invalid' }),
    );
    expect(readFileSync(file(), 'utf8')).toBe(broken);
    expect(restarts).toEqual([]);
  });
});

describe('AgentSettings.revokeRule', () => {
  it('removes exactly that rule (no restart: approvals read the file at each request)', () => {
    settings.revokeRule('claude', 'Bash(ls)');
    expect(source.config.agents[1]?.allow).toEqual(['Bash(npm test)']);
    expect(readFileSync(file(), 'utf8')).toBe(PERSON.replace('["Bash(ls)", "Bash(npm test)"]', '[ "Bash(npm test)" ]'));
    expect(restarts).toEqual([]);
  });

  it('an unknown rule names the rules there are; an unknown agent is its own error', () => {
    expect(() => settings.revokeRule('claude', 'Bash(rm -rf /)')).toThrow(
      expect.objectContaining({
        code: 'unknown_rule',
        message: expect.stringContaining('its rules are: "Bash(ls)", "Bash(npm test)"'),
      }),
    );
    expect(() => settings.revokeRule('demo', 'Bash(ls)')).toThrow(
      expect.objectContaining({ code: 'unknown_rule', message: expect.stringContaining('its rules are: none') }),
    );
    expect(() => settings.revokeRule('nobody', 'Bash(ls)')).toThrow(expect.objectContaining({ code: 'unknown_agent' }));
    expect(readFileSync(file(), 'utf8')).toBe(PERSON);
  });
});
