/**
 * issue 40 items 3 and 5 against a real `agentteam serve` (real daemon, demo agents): `agentteam
 * agents` names why an agent cannot start — its workspace is missing, or overlaps the data
 * folder — with that reason and its own fix (never `cli_exited` / "restart AgentTeam"); a wake
 * of it fails with that reason; and `agentteam retry AGENT`, the Retry every such fix promises,
 * checks again and really starts the agent once the cause is fixed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli } from '../../../../main/serve/cli-main.js';
import { connectDaemon, type DaemonClient } from '../../../../main/serve/daemon-client.js';
import type { ServeServer } from '../../../../main/serve/serve-server.js';
import { isTerminal } from '../../../../shared/wake-status.js';
import { makeTempDir, type TempDir } from '../../../fixtures/temp-dir.js';
import { captureIo } from '../../../fixtures/capture-io.js';

let dir: TempDir;
/** The project folders live outside the data dir (one inside it overlaps, issue 29). */
let projects: TempDir;
let stop: (signal: string) => void;
let exit: Promise<number>;
let client: DaemonClient;
let env: Record<string, string>;
let missing: string;

beforeEach(async () => {
  dir = makeTempDir('agentteam-retry-cli-');
  projects = makeTempDir('agentteam-retry-projects-');
  missing = join(projects.path, 'project-not-made-yet');
  writeFileSync(
    join(dir.path, 'agentteam.json'),
    JSON.stringify({
      agents: [
        { id: 'ghost', name: 'Ghost', runtime: 'demo', cwd: missing },
        { id: 'nosy', name: 'Nosy', runtime: 'demo', cwd: dir.path },
      ],
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
  projects.remove();
});

/** The wake of a message, once it ended (each read is one API round trip). */
async function ended(messageId: string) {
  for (;;) {
    const r = await client.call('wakes.list', { limit: 50 });
    const wake = r.ok ? r.value.find((w) => w.messageId === messageId) : undefined;
    if (wake !== undefined && isTerminal(wake.status)) return wake;
    await new Promise<void>((resolve) => setTimeout(resolve, 20));
  }
}

it('names the cause per agent, its wakes fail with it, and retry starts the agent once it is fixed', async () => {
  const json = captureIo();
  expect(await runCli(['agents', '--data-dir', dir.path, '--json'], { io: json, env })).toBe(0);
  const rows = JSON.parse(json.outLines.join('')) as Array<Record<string, unknown>>;
  expect(rows.find((r) => r.id === 'ghost')).toMatchObject({
    state: 'cannot_start',
    ready: false,
    reason: 'workspace_missing',
    fix: "Create this agent's workspace folder, or choose another folder under Workspace on the agent's page, then Retry.",
  });
  expect(rows.find((r) => r.id === 'nosy')).toMatchObject({
    state: 'cannot_start',
    reason: 'workspace_overlap',
    fix: "Under Workspace on the agent's page, choose a project folder that neither contains nor lies inside AgentTeam's data folder, then Retry.",
  });
  const text = captureIo();
  expect(await runCli(['agents', '--data-dir', dir.path], { io: text, env })).toBe(0);
  expect(text.outLines.find((l) => l.startsWith('ghost'))).toMatch(/^ghost {2}demo {2}Can't start {2}— Create this/);
  expect(text.outLines.join('\n')).not.toMatch(/cli_exited|restart AgentTeam|exited unexpectedly/);

  // A wake that cannot be delivered fails with the cause, never runtime_error.
  const sent = await client.call('messages.send', { target: '#general', content: '@ghost are you there?' });
  if (!sent.ok) throw new Error(sent.message);
  expect(await ended(sent.value.messageId)).toMatchObject({ status: 'failed', reason: 'workspace_missing' });

  // Retry before the fix: still not ready, exit 1, the same cause and fix.
  const early = captureIo();
  expect(await runCli(['retry', 'ghost', '--data-dir', dir.path], { io: early, env })).toBe(1);
  expect(early.outLines).toEqual([expect.stringMatching(/^ghost {2}demo {2}Can't start {2}— Create this/)]);

  // The person makes the folder and retries: the agent starts, and a mention gets a reply.
  mkdirSync(missing);
  const fixed = captureIo();
  expect(await runCli(['retry', '--agent', 'ghost', '--data-dir', dir.path, '--json'], { io: fixed, env })).toBe(0);
  expect(JSON.parse(fixed.outLines.join(''))).toMatchObject({ id: 'ghost', state: 'ready', ready: true, reason: null });
  const again = await client.call('messages.send', { target: '#general', content: '@ghost are you there now?' });
  if (!again.ok) throw new Error(again.message);
  expect(await ended(again.value.messageId)).toMatchObject({ status: 'reply_sent' });

  // An unknown agent and a missing one are clear errors.
  const unknown = captureIo();
  expect(await runCli(['retry', 'nobody', '--data-dir', dir.path], { io: unknown, env })).toBe(2);
  expect(unknown.errLines.join('\n')).toMatch(/There is no agent "nobody"/);
  const bare = captureIo();
  expect(await runCli(['retry', '--data-dir', dir.path], { io: bare, env })).toBe(2);
  expect(bare.errLines.join('\n')).toMatch(/the agent to retry is required/);
}, 60_000);
