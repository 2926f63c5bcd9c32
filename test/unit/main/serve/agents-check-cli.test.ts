/**
 * issue 40 item 9: `agentteam agents --check` exited 0 while agents were not ready. Against a real
 * `agentteam serve`: a Claude Code agent whose CLI is missing makes `--check` exit 1 naming it (and
 * its state); the listing itself (without --check) stays exit 0; with every agent ready, exit 0.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runCli } from '../../../../main/serve/cli-main.js';
import type { ServeServer } from '../../../../main/serve/serve-server.js';
import { makeTempDir, type TempDir } from '../../../fixtures/temp-dir.js';
import { captureIo } from '../../../fixtures/capture-io.js';

let dir: TempDir | undefined;
let stop: ((signal: string) => void) | undefined;
let exit: Promise<number> | undefined;

afterEach(async () => {
  stop?.('SIGTERM');
  await exit;
  dir?.remove();
});

async function serve(agents: unknown[]): Promise<string> {
  dir = makeTempDir('agentteam-agents-check-');
  writeFileSync(join(dir.path, 'agentteam.json'), JSON.stringify({ agents }));
  const stopRequested = new Promise<string>((r) => (stop = r));
  let listening = (_s: ServeServer): void => undefined;
  const ready = new Promise<ServeServer>((r) => (listening = r));
  exit = runCli(['serve', '--data-dir', dir.path, '--port', '0'], {
    io: captureIo(),
    serve: { rendererDir: null, stopRequested, onListening: listening },
  });
  await ready;
  // The demo's start is quick but not instant: until then it is "starting", which a check counts as not ready.
  for (;;) {
    const io = captureIo();
    await runCli(['agents', '--json', '--data-dir', dir.path], { io });
    const rows = JSON.parse(io.outLines.join('')) as Array<{ id: string; ready: boolean }>;
    if (rows.find((a) => a.id === 'demo')?.ready === true) return dir.path;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

const DEMO = { id: 'demo', name: 'Demo', runtime: 'demo' };

it('exits 1 naming the agents that are not ready', async () => {
  const data = await serve([
    DEMO,
    { id: 'claude', name: 'Claude', runtime: 'claude-code', command: '/nonexistent/claude-for-agents-check' },
  ]);
  const io = captureIo();
  expect(await runCli(['agents', '--check', '--data-dir', data], { io })).toBe(1);
  expect(io.errLines).toEqual(['agentteam: 1 of 2 agent(s) not ready: claude (cli_missing).']);
  expect(io.outLines).toHaveLength(2);
  // The listing is no check: it answers 0 whatever the agents' state.
  expect(await runCli(['agents', '--data-dir', data], { io: captureIo() })).toBe(0);
}, 60_000);

it('exits 0 when every agent is ready', async () => {
  const data = await serve([DEMO]);
  const io = captureIo();
  expect(await runCli(['agents', '--check', '--data-dir', data], { io })).toBe(0);
  expect(io.errLines).toEqual([]);
}, 60_000);
