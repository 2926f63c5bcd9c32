/**
 * issue 14 through the assembled daemon, on BOTH transports a person's UI uses: the token
 * WebSocket of `agentteam serve` and the Electron IPC gate (sender-checked; Electron faked, the
 * daemon real). An agent's workspace and permission policy are chosen, an "always" rule revoked:
 * each is validated, written into agentteam.json (only that key; every other byte kept), shown on
 * the agent, and never flagged "restart to apply" (the agent restarts with it / it applies at once).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../fixtures/electron-fake.js')).electronModule);

import * as fake from '../../fixtures/electron-fake.js';
import type { BrowserWindow } from 'electron';
import { channelOf, type Agent, type ApiResult, type Settings } from '../../../shared/api/contract.js';
import { APP_ENTRY_URL, isAppUrl } from '../../../main/app/app-protocol.js';
import { openIpcGate, type IpcGate } from '../../../main/app/ipc-gate.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { startServeServer, type ServeServer } from '../../../main/serve/serve-server.js';
import { makeTempDir, type TempDir } from '../../fixtures/temp-dir.js';

const TOKEN = 'S'.repeat(43);
const OPERATOR = 'O'.repeat(43);
const quiet = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };
// The person's own layout (4-space indent, one agent per line): it must survive every write byte for byte.
const PERSON = [
  '{',
  '    "agents": [',
  '        { "id": "demo", "name": "Demo", "runtime": "demo" },',
  '        { "id": "claude", "name": "Claude", "runtime": "claude-code", "command": "agentteam-no-such-cli-4711",',
  '          "allow": ["Bash(ls)", "Bash(npm test)"] }',
  '    ]',
  '}',
  '',
].join('\n');

let dir: TempDir;
let daemon: Daemon;
let server: ServeServer;
let gate: IpcGate;
let window: fake.FakeBrowserWindow;
let ws: WebSocket;
let nextId = 1;
const file = () => join(dir.path, 'data', 'agentteam.json');

beforeEach(async () => {
  dir = makeTempDir('agentteam-agent-settings-');
  mkdirSync(join(dir.path, 'data'));
  mkdirSync(join(dir.path, 'project'));
  writeFileSync(join(dir.path, 'a-file.txt'), 'not a folder');
  writeFileSync(file(), PERSON);
  daemon = await createDaemon({ dataDir: join(dir.path, 'data'), log: quiet });
  server = await startServeServer({
    daemon,
    token: TOKEN,
    operatorKey: OPERATOR,
    port: 0,
    rendererDir: null,
    checkResponses: true,
  });
  // The operator's UI: opened from the printed URL, with this start's operator key (issue 29).
  ws = new WebSocket(`ws://127.0.0.1:${server.port}/api?token=${TOKEN}&operator=${OPERATOR}`);
  await new Promise((r) => ws.once('open', r));
  fake.resetElectronFake();
  gate = openIpcGate({ handlers: daemon.api, events$: daemon.events$, isAllowedOrigin: isAppUrl, log: quiet });
  window = new fake.BrowserWindow({});
  void window.loadURL(APP_ENTRY_URL);
  gate.addWindow(window as unknown as BrowserWindow);
});
afterEach(async () => {
  ws.close();
  gate.close();
  await server.close();
  await daemon.stop();
  dir.remove();
});

/** One call over the WebSocket bridge (the browser's transport). */
function overWs<T>(call: string, request: unknown): Promise<ApiResult<T>> {
  const id = nextId++;
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(data.toString()) as { id?: number } & ApiResult<T>;
      if (frame.id !== id) return;
      ws.off('message', onMessage);
      const { id: _id, ...result } = frame;
      resolve(result as ApiResult<T>);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, call, request }));
  });
}

/** One call over the IPC gate (the desktop app's transport), from the app window's main frame. */
function overIpc<T>(call: string, request: unknown): Promise<ApiResult<T>> {
  return fake.ipcMain.invoke(channelOf(call as never), window, window.webContents.mainFrame, request) as Promise<
    ApiResult<T>
  >;
}

const transports = [
  ['WebSocket', overWs],
  ['IPC gate', overIpc],
] as const;

describe.each(transports)('over the %s', (_name, call) => {
  it('agents.update saves a valid workspace and policy into that agent only, and the agent shows them', async () => {
    const project = join(dir.path, 'project');
    const r = await call<Agent>('agents.update', { agentId: 'claude', cwd: `${project}/`, permissions: 'full' });
    expect(r).toMatchObject({ ok: true, value: { id: 'claude', cwd: project, permissions: 'full' } });
    // Only those two keys were written; the person's layout and the other agent are untouched.
    const text = readFileSync(file(), 'utf8');
    expect(text).toContain(`"cwd": ${JSON.stringify(project)}`);
    expect(text).toContain('"permissions": "full"');
    expect(text.split('\n').slice(0, 4)).toEqual(PERSON.split('\n').slice(0, 4));
    expect(JSON.parse(text).agents[0]).toEqual({ id: 'demo', name: 'Demo', runtime: 'demo' });
    const listed = await call<Agent[]>('agents.list', {});
    expect(listed.ok && listed.value.find((a) => a.id === 'claude')).toMatchObject({
      cwd: project,
      permissions: 'full',
    });
    // What runs is the file's entry: Settings does not say "restart to apply".
    const settings = await call<Settings>('settings.get', {});
    expect(settings.ok && settings.value.config?.restartNeeded).toEqual([]);
  });

  it('agents.update refuses a bad workspace naming the path, and writes nothing', async () => {
    const cases: Array<[string, RegExp]> = [
      ['relative/project', /must be a full \(absolute\) path to a folder: "relative\/project"/],
      [join(dir.path, 'nope'), new RegExp(`does not exist: ${join(dir.path, 'nope')}`)],
      [join(dir.path, 'a-file.txt'), new RegExp(`is not a folder: ${join(dir.path, 'a-file.txt')}`)],
    ];
    for (const [cwd, message] of cases) {
      const r = await call('agents.update', { agentId: 'claude', cwd });
      expect(r).toMatchObject({ ok: false, code: 'workspace_invalid' });
      expect(!r.ok && r.message).toMatch(message);
    }
    expect(await call('agents.update', { agentId: 'nobody', permissions: 'ask' })).toMatchObject({
      ok: false,
      code: 'unknown_agent',
    });
    expect(await call('agents.update', { agentId: 'claude', permissions: 'everything' })).toMatchObject({
      ok: false,
      code: 'invalid_request',
    });
    expect(readFileSync(file(), 'utf8')).toBe(PERSON);
  });

  it('issue 26: agents.update saves isolation and baseBranch (a bad branch name is refused, nothing written)', async () => {
    for (const baseBranch of ['a..b', '-main', 'has space']) {
      const r = await call('agents.update', { agentId: 'claude', isolation: 'worktree', baseBranch });
      expect(r, baseBranch).toMatchObject({ ok: false, code: 'invalid_request' });
    }
    expect(await call('agents.update', { agentId: 'claude', isolation: 'sandbox' })).toMatchObject({
      ok: false,
      code: 'invalid_request',
    });
    expect(readFileSync(file(), 'utf8')).toBe(PERSON);

    const r = await call<Agent>('agents.update', { agentId: 'claude', isolation: 'worktree', baseBranch: 'main' });
    expect(r).toMatchObject({ ok: true, value: { id: 'claude', isolation: 'worktree', baseBranch: 'main' } });
    const saved = JSON.parse(readFileSync(file(), 'utf8')) as { agents: Record<string, unknown>[] };
    expect(saved.agents[1]).toMatchObject({ isolation: 'worktree', baseBranch: 'main' });
    expect(saved.agents[0]).toEqual({ id: 'demo', name: 'Demo', runtime: 'demo' });
    // null: back to "the branch checked out in cwd"; "none": back to working in cwd itself.
    const back = await call<Agent>('agents.update', { agentId: 'claude', isolation: 'none', baseBranch: null });
    expect(back).toMatchObject({ ok: true, value: { isolation: 'none', baseBranch: null } });
    expect(JSON.parse(readFileSync(file(), 'utf8')).agents[1]).toMatchObject({ isolation: 'none', baseBranch: null });
  });

  it('agents.revokeRule removes exactly that rule; an unknown rule or agent is a clear error', async () => {
    const r = await call<Agent>('agents.revokeRule', { agentId: 'claude', rule: 'Bash(ls)' });
    // issue 29: rules the person wrote into the file are not grants until confirmed.
    expect(r).toMatchObject({ ok: true, value: { allow: [], unconfirmedAllow: ['Bash(npm test)'] } });
    expect(readFileSync(file(), 'utf8')).toBe(PERSON.replace('["Bash(ls)", "Bash(npm test)"]', '[ "Bash(npm test)" ]'));
    const again = await call('agents.revokeRule', { agentId: 'claude', rule: 'Bash(ls)' });
    expect(again).toMatchObject({ ok: false, code: 'unknown_rule' });
    expect(!again.ok && again.message).toContain('"Bash(npm test)"');
    expect(await call('agents.revokeRule', { agentId: 'nobody', rule: 'Bash(ls)' })).toMatchObject({
      ok: false,
      code: 'unknown_agent',
    });
    const settings = await call<Settings>('settings.get', {});
    expect(settings.ok && settings.value.config?.restartNeeded).toEqual([]);
  });

  it("issue 29: the file's rules wait for confirmation; agents.confirmRule grants one (the store), unchanged file", async () => {
    const listed = await call<Agent[]>('agents.list', {});
    expect(listed.ok && listed.value.find((a) => a.id === 'claude')).toMatchObject({
      allow: [],
      unconfirmedAllow: ['Bash(ls)', 'Bash(npm test)'],
    });
    const r = await call<Agent>('agents.confirmRule', { agentId: 'claude', rule: 'Bash(npm test)' });
    expect(r).toMatchObject({ ok: true, value: { allow: ['Bash(npm test)'], unconfirmedAllow: ['Bash(ls)'] } });
    expect(readFileSync(file(), 'utf8')).toBe(PERSON);
    expect(await call('agents.confirmRule', { agentId: 'claude', rule: 'Bash(rm -rf /)' })).toMatchObject({
      ok: false,
      code: 'unknown_rule',
    });
    // The serve token alone (what an agent's process can read) confirms nothing.
    // Calls only (no pushed events): its first message is the answer.
    const tokenOnly = new WebSocket(`ws://127.0.0.1:${server.port}/api?token=${TOKEN}&events=none`);
    await new Promise((resolve) => tokenOnly.once('open', resolve));
    const refused = await new Promise<Record<string, unknown>>((resolve) => {
      tokenOnly.once('message', (d) => resolve(JSON.parse(String(d)) as Record<string, unknown>));
      tokenOnly.send(
        JSON.stringify({ id: 1, call: 'agents.confirmRule', request: { agentId: 'claude', rule: 'Bash(ls)' } }),
      );
    });
    tokenOnly.close();
    expect(refused).toMatchObject({ ok: false, code: 'operator_only' });
    const after = await call<Agent[]>('agents.list', {});
    expect(after.ok && after.value.find((a) => a.id === 'claude')?.unconfirmedAllow).toEqual(['Bash(ls)']);
  });
});

it('desktop.chooseFolder is not offered by the daemon: the browser transport answers unavailable', async () => {
  const r = await overWs('desktop.chooseFolder', {});
  expect(r).toMatchObject({ ok: false, code: 'unavailable' });
  expect(!r.ok && r.message).toMatch(/only possible in the desktop app; type the full path/);
});
