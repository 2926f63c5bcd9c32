/**
 * issue 42: a CLI's sign-in status command that does not answer within the probe's timeout (20
 * agents starting at once on a loaded machine) is no answer — never "not signed in": the agent is
 * started (its first turn tells), and the answer is marked provisional, so the probe cache asks
 * the CLI again at the next check. A real program (a shell script) stands in for the CLI.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { AgentConfigSchema } from '../../../../../shared/config.js';
import { probeCli, type CliProbeSpec } from '../../../../../main/daemon/runtime/cli-probe.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const dirs: TempDir[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/** A CLI whose `--version` answers at once and whose `auth status` takes `statusSeconds`, then says not signed in. */
function slowCli(statusSeconds: number): { spec: CliProbeSpec; dataDir: string } {
  const dir = makeTempDir('agentteam-cli-probe-');
  dirs.push(dir);
  const command = join(dir.path, 'fake-cli');
  writeFileSync(
    command,
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "1.2.3 (Fake)"; exit 0; fi\nsleep ${statusSeconds}\necho '{"loggedIn":false}'\nexit 1\n`,
  );
  chmodSync(command, 0o755);
  const spec: CliProbeSpec = {
    command,
    env: { PATH: process.env.PATH ?? '' },
    status: ['auth', 'status'],
    ownKey: null,
    judge: (_res, out) => ({ signedIn: (JSON.parse(out) as { loggedIn: boolean }).loggedIn, detail: null }),
  };
  return { spec, dataDir: dir.path };
}

const agent = AgentConfigSchema.parse({ id: 'claude1', name: 'Claude', runtime: 'claude-code' });

it('a status command that outlives the timeout is no answer: started (ready, provisional), never needs_sign_in', async () => {
  const { spec, dataDir } = slowCli(5);
  const probe = await probeCli(agent, { dataDir, projectRoot: dataDir, timeoutMs: 300 }, spec);
  expect(probe).toMatchObject({ outcome: 'ready', cliVersion: '1.2.3 (Fake)', provisional: true });
  expect(probe.detail).toMatch(/did not answer within/);
});

it('a status command that answers in time is judged as before (not signed in)', async () => {
  const { spec, dataDir } = slowCli(0);
  const probe = await probeCli(agent, { dataDir, projectRoot: dataDir, timeoutMs: 10_000 }, spec);
  expect(probe).toMatchObject({ outcome: 'needs_sign_in', cliVersion: '1.2.3 (Fake)' });
  expect(probe.provisional).toBeUndefined();
});
