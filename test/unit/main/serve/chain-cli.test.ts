/**
 * issue 25: `agentteam chain continue` against a real `agentteam serve` (real daemon, two demo
 * agents, `limits.agentHops: 1`): the demo's ask takes the one hop, the hand-back is held and the
 * chain pauses; Continue grants another budget and the hand-back arrives. Nothing paused: exit 1.
 * Without the operator key the call is refused.
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
let env: Record<string, string>;

beforeEach(async () => {
  dir = makeTempDir('agentteam-chain-cli-');
  writeFileSync(
    join(dir.path, 'agentteam.json'),
    JSON.stringify({
      agents: [
        { id: 'demo', name: 'Demo', runtime: 'demo' },
        { id: 'helper', name: 'Helper', runtime: 'demo' },
      ],
      limits: { agentHops: 1 },
    }),
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

/** Reads the wakes until `count` exist and all are terminal (each read is one API round trip; no timer). */
async function untilWakes(count: number): Promise<{ agentId: string; cause?: string; reason: string | null }[]> {
  for (;;) {
    const r = await client.call('wakes.list', {});
    if (r.ok && r.value.length >= count && r.value.every((w) => w.endedAt !== null)) return r.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

it('continues the paused chain: exit 0 and the held hand-back arrives; then nothing is paused: exit 1', async () => {
  const sent = await client.call('messages.send', { target: '#general', content: '@demo /ask helper ping?' });
  if (!sent.ok) throw new Error(sent.message);
  expect((await untilWakes(2)).map((w) => [w.agentId, w.cause])).toEqual([
    ['demo', 'operator'],
    ['helper', 'agent_mention'],
  ]);
  for (;;) {
    const paused = await client.call('chains.list', { pausedOnly: true });
    if (paused.ok && paused.value.length === 1) break;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const refused = captureIo();
  // An earlier start's key (issue 41: it wins over <data-dir>/operator-key, so it is what is presented).
  expect(
    await runCli(['chain', 'continue', '--data-dir', dir.path], {
      io: refused,
      env: { AGENTTEAM_OPERATOR_KEY: 'x'.repeat(43) },
    }),
  ).toBe(1);
  expect(refused.errLines.join('\n')).toMatch(/operator_only/);

  const io = captureIo();
  expect(await runCli(['chain', 'continue', '--data-dir', dir.path, '--conversation', '#general'], { io, env })).toBe(
    0,
  );
  expect(io.outLines).toEqual(['continued the agents in #general: 2 of 2 hand-offs used']);
  const wakes = await untilWakes(3);
  // issue 38: the lead posts its answer after the hand-back: the covered hand-back row settles reply_sent.
  expect(wakes[2]).toMatchObject({ agentId: 'demo', cause: 'hand_back', status: 'reply_sent' });

  const none = captureIo();
  expect(await runCli(['chain', 'continue', '--data-dir', dir.path], { io: none, env })).toBe(1);
  expect(none.errLines).toEqual(['agentteam: No chain of agents is paused; nothing to continue. (not_paused)']);
});

it.each([
  [['chain'], /unknown chain command ""/],
  [['chain', 'continue', '--conversation', ''], /--conversation must not be empty/],
  [['chain', 'continue', 'extra'], /Unexpected argument 'extra'/],
])('%j exits 2 with one line', async (argv, message) => {
  const io = captureIo();
  expect(await runCli(argv, { io })).toBe(2);
  expect(io.errLines).toHaveLength(1);
  expect(io.errLines[0]).toMatch(message);
});
