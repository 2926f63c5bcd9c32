/** issue 14: `agentteam revoke --agent ID RULE` against a real `agentteam serve` (real daemon, demo + a CLI-less agent). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli } from '../../../../main/serve/cli-main.js';
import type { ServeServer } from '../../../../main/serve/serve-server.js';
import { makeTempDir, type TempDir } from '../../../fixtures/temp-dir.js';
import { captureIo } from '../../../fixtures/capture-io.js';

let dir: TempDir;
let stop: (signal: string) => void;
let exit: Promise<number>;
let operator: Record<string, string>;
const file = () => join(dir.path, 'agentteam.json');

beforeEach(async () => {
  dir = makeTempDir('agentteam-revoke-cli-');
  writeFileSync(
    file(),
    JSON.stringify({
      agents: [
        {
          id: 'claude',
          name: 'Claude',
          runtime: 'claude-code',
          command: 'agentteam-no-such-cli-4711',
          allow: ['Bash(ls)', 'Bash(npm test)'],
        },
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
  // issue 29: revoke carries the operator key from the printed URL (its fragment).
  operator = { AGENTTEAM_OPERATOR_KEY: new URL((await ready).url).hash.replace('#operator=', '') };
});
afterEach(async () => {
  stop('SIGTERM');
  await exit;
  dir.remove();
});

it('removes exactly that rule from agentteam.json; an unknown rule exits 1 naming the rules there are', async () => {
  const io = captureIo();
  expect(await runCli(['revoke', '--data-dir', dir.path, '--agent', 'claude', 'Bash(ls)'], { io, env: operator })).toBe(
    0,
  );
  expect(io.outLines).toEqual(['revoked Bash(ls) (claude)']);
  expect(JSON.parse(readFileSync(file(), 'utf8')).agents[0].allow).toEqual(['Bash(npm test)']);
  const again = captureIo();
  expect(
    await runCli(['revoke', '--data-dir', dir.path, '--agent', 'claude', 'Bash(ls)'], { io: again, env: operator }),
  ).toBe(1);
  expect(again.errLines[0]).toMatch(/no "always" rule "Bash\(ls\)".*"Bash\(npm test\)".*\(unknown_rule\)/);
});

it.each([
  [['revoke', '--data-dir', 'X', 'Bash(ls)'], /--agent ID is required/],
  [['revoke', '--data-dir', 'X', '--agent', 'claude'], /give exactly one rule/],
])('%j exits 2 with one line', async (argv, message) => {
  const io = captureIo();
  expect(await runCli(argv, { io })).toBe(2);
  expect(io.errLines).toHaveLength(1);
  expect(io.errLines[0]).toMatch(message);
});
