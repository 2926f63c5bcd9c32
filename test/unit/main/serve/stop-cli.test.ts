/**
 * issue 29 "Turns end": `agentteam stop --agent ID` against a real `agentteam serve` (real daemon,
 * demo agent with a quiet task longer than the test): the working turn ends at once, its wake
 * `failed` / `stopped_by_operator`; an idle agent is refused naming it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli } from '../../../../main/serve/cli-main.js';
import { connectDaemon, type DaemonClient } from '../../../../main/serve/daemon-client.js';
import type { ServeServer } from '../../../../main/serve/serve-server.js';
import { makeTempDir, type TempDir } from '../../../fixtures/temp-dir.js';
import { captureIo } from '../../../fixtures/capture-io.js';

let dir: TempDir;
let stop: (signal: string) => void;
let exit: Promise<number>;
let client: DaemonClient;
/** The operator key this start printed (the URL's fragment): Stop is an operator call (issue 29). */
let env: Record<string, string>;

beforeEach(async () => {
  dir = makeTempDir('agentteam-stop-cli-');
  writeFileSync(
    join(dir.path, 'agentteam.json'),
    JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_TASK_MS: '3600000' } }] }),
  );
  const stopRequested = new Promise<string>((r) => (stop = r));
  let listening = (_s: ServeServer): void => undefined;
  const ready = new Promise<ServeServer>((r) => (listening = r));
  exit = runCli(['serve', '--data-dir', dir.path, '--port', '0'], {
    io: captureIo(),
    serve: { rendererDir: null, stopRequested, onListening: listening },
  });
  env = { AGENTTEAM_OPERATOR_KEY: new URL((await ready).url).hash.replace('#operator=', '') };
  const connected = await connectDaemon(dir.path);
  if (!connected.ok) throw new Error(connected.message);
  client = connected.client;
});
afterEach(async () => {
  client.close();
  stop('SIGTERM');
  await exit;
  dir.remove();
});

/** The demo agent's state, read until it is `state` (each read is one API round trip; no timer). */
async function untilAgent(state: string): Promise<void> {
  for (;;) {
    const r = await client.call('agents.list', {});
    if (r.ok && r.value.find((a) => a.id === 'demo')?.state === state) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

it('stops the working turn: exit 0, its wake failed / stopped_by_operator; then an idle agent exits 1 naming it', async () => {
  const sent = await client.call('messages.send', { target: '#general', content: '@demo /slow' });
  if (!sent.ok) throw new Error(sent.message);
  await untilAgent('busy');
  const io = captureIo();
  expect(await runCli(['stop', '--data-dir', dir.path, '--agent', 'demo'], { io, env })).toBe(0);
  expect(io.outLines).toEqual(['stopped the working turn of Demo (demo)']);
  await untilAgent('idle');
  const wakes = await client.call('wakes.list', { target: '#general' });
  if (!wakes.ok) throw new Error(wakes.message);
  expect(wakes.value.find((w) => w.messageId === sent.value.messageId)).toMatchObject({
    status: 'failed',
    reason: 'stopped_by_operator',
  });

  const idle = captureIo();
  expect(await runCli(['stop', '--data-dir', dir.path, '--agent', 'demo'], { io: idle, env })).toBe(1);
  expect(idle.errLines).toEqual([
    'agentteam: Demo (demo) is not working on a turn; there is nothing to stop. (not_working)',
  ]);
});

it.each([
  [['stop', '--data-dir', 'X'], /--agent ID is required/],
  [['stop', '--data-dir', 'X', '--agent', 'demo', 'extra'], /Unexpected argument 'extra'/],
])('%j exits 2 with one line', async (argv, message) => {
  const io = captureIo();
  expect(await runCli(argv, { io })).toBe(2);
  expect(io.errLines).toHaveLength(1);
  expect(io.errLines[0]).toMatch(message);
});
