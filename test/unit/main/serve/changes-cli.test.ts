/**
 * issue 26: `agentteam changes --agent ID --wake TOKEN [--json]` against a real `agentteam serve`
 * (real daemon, the demo agent in a real git repository): the demo's `/approve` file is listed with
 * its path, status and counts; a wake of another agent, a missing --agent and an agent that works in
 * its own folder without --wake are refused, each naming what is wrong.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli } from '../../../../main/serve/cli-main.js';
import { connectDaemon, type DaemonClient } from '../../../../main/serve/daemon-client.js';
import type { ServeServer } from '../../../../main/serve/serve-server.js';
import { makeTempDir, type TempDir } from '../../../fixtures/temp-dir.js';
import { captureIo } from '../../../fixtures/capture-io.js';
import { shortWakeId } from '../../../../shared/wake-id.js';

let dir: TempDir;
let repo: TempDir;
let stop: (signal: string) => void;
let exit: Promise<number>;
let client: DaemonClient;

beforeEach(async () => {
  dir = makeTempDir('agentteam-changes-cli-');
  repo = makeTempDir('agentteam-changes-repo-');
  mkdirSync(repo.path, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo.path });
  writeFileSync(
    join(dir.path, 'agentteam.json'),
    JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', cwd: repo.path }] }),
  );
  const stopRequested = new Promise<string>((r) => (stop = r));
  let listening = (_s: ServeServer): void => undefined;
  const ready = new Promise<ServeServer>((r) => (listening = r));
  exit = runCli(['serve', '--data-dir', dir.path, '--port', '0'], {
    io: captureIo(),
    serve: { rendererDir: null, stopRequested, onListening: listening },
  });
  const key = new URL((await ready).url).hash.replace('#operator=', '');
  const connected = await connectDaemon(dir.path, 5000, key);
  if (!connected.ok) throw new Error(connected.message);
  client = connected.client;
});
afterEach(async () => {
  client.close();
  stop('SIGTERM');
  await exit;
  dir.remove();
  repo.remove();
});

/** Calls until `ok` answers true (each call one API round trip; no timer). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

it('lists the files of a wake (text and --json)', async () => {
  const sent = await client.call('messages.send', { target: '#general', content: '@demo /approve' });
  if (!sent.ok) throw new Error(sent.message);
  const wake = await until(
    async () => {
      const r = await client.call('wakes.list', { target: '#general' });
      return r.ok ? r.value.find((w) => w.messageId === sent.value.messageId) : undefined;
    },
    (w) => w !== undefined,
  );
  const token = wake!.wakeToken;
  const changesOf = async () => {
    const r = await client.call('wakes.changes', { wakeToken: token });
    if (!r.ok) throw new Error(r.message);
    return r.value;
  };
  await until(changesOf, (c) => c.state === 'pending');
  const approval = await until(
    async () => {
      const r = await client.call('approvals.list', { status: 'pending' });
      return r.ok ? r.value[0] : undefined;
    },
    (a) => a !== undefined,
  );
  const answered = await client.call('approvals.answer', { id: approval!.id, decision: 'allow' });
  if (!answered.ok) throw new Error(answered.message);
  await until(changesOf, (c) => c.state === 'tracked');

  const json = captureIo();
  expect(
    await runCli(['changes', '--data-dir', dir.path, '--agent', 'demo', '--wake', token, '--json'], { io: json }),
  ).toBe(0);
  expect(JSON.parse(json.outLines.join('\n'))).toEqual({
    agentId: 'demo',
    wakeToken: token,
    state: 'tracked',
    reason: null,
    files: [
      {
        path: 'agentteam-demo.txt',
        status: 'added',
        added: 2,
        removed: 0,
        oldPath: null,
        binary: false,
        omitted: null,
      },
    ],
  });
  const text = captureIo();
  expect(await runCli(['changes', '--data-dir', dir.path, '--agent', 'demo', '--wake', token], { io: text })).toBe(0);
  expect(text.outLines).toEqual([`${token}  tracked  1 file(s)`, 'added     +2 -0        agentteam-demo.txt']);

  // issue 40 item 9: the short id the inspector shows names the same wake.
  const short = captureIo();
  expect(
    await runCli(['changes', '--data-dir', dir.path, '--agent', 'demo', '--wake', shortWakeId(token)], { io: short }),
  ).toBe(0);
  expect(short.outLines).toEqual(text.outLines);
  const tooShort = captureIo();
  expect(await runCli(['changes', '--data-dir', dir.path, '--agent', 'demo', '--wake', 'wk_'], { io: tooShort })).toBe(
    2,
  );
  expect(tooShort.errLines).toEqual(['agentteam: the wake id "wk_" is too short; give at least 4 characters of it.']);

  const other = captureIo();
  expect(await runCli(['changes', '--data-dir', dir.path, '--agent', 'claude', '--wake', token], { io: other })).toBe(
    1,
  );
  expect(other.errLines).toEqual([`agentteam: the wake ${token} is of agent "demo", not "claude".`]);
});

it('refuses "changes since base" for an agent in its own folder, and bad input', async () => {
  const io = captureIo();
  expect(await runCli(['changes', '--data-dir', dir.path, '--agent', 'demo'], { io })).toBe(1);
  expect(io.errLines.join('\n')).toMatch(/Agent "demo" works in its own folder, not in a worktree.*\(not_isolated\)/);
  const bad = captureIo();
  expect(await runCli(['changes', '--data-dir', dir.path], { io: bad })).toBe(2);
  expect(bad.errLines).toEqual(['agentteam changes: --agent ID is required; run "agentteam --help".']);
});
