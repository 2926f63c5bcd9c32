/** The runtime pid registry (issue 16 "No orphans"): a killed daemon's runtimes are ended by the next one, never a stranger. */
import { spawn } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processTreeAlive, signalProcessTree } from '../../../../../main/daemon/runtime/process-tree.js';
import { RUNTIME_PIDS_DIR, RuntimePidRegistry } from '../../../../../main/daemon/runtime/runtime-pids.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const dirs: TempDir[] = [];
const groups: number[] = [];
afterEach(async () => {
  for (const pid of groups.splice(0)) await signalProcessTree(pid, 'SIGKILL');
  for (const d of dirs.splice(0)) d.remove();
});

function tempDataDir(): string {
  const d = makeTempDir('agentteam-pids-');
  dirs.push(d);
  return d.path;
}

/** A runtime stand-in: a process group leader with a child of its own in the group. */
async function runtimeGroup(): Promise<number> {
  const script = `require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('up'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((r) => child.stdout.once('data', r));
  groups.push(child.pid as number);
  return child.pid as number;
}

describe('RuntimePidRegistry', () => {
  it('records one 0600 file per process and forgets it', async () => {
    const dataDir = tempDataDir();
    const reg = new RuntimePidRegistry(dataDir, { daemonPid: 1 });
    const pid = await runtimeGroup();
    reg.record(pid, { agentId: 'oc', command: 'opencode' });
    const file = join(dataDir, RUNTIME_PIDS_DIR, `${pid}.json`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, RUNTIME_PIDS_DIR)).mode & 0o777).toBe(0o700);
    expect(reg.records()).toMatchObject([{ pid, agentId: 'oc', command: 'opencode', daemonPid: 1 }]);
    expect(reg.records()[0]?.startTime).toMatch(/^linux:\d+$|^ps:/);
    reg.forget(pid);
    expect(readdirSync(join(dataDir, RUNTIME_PIDS_DIR))).toEqual([]);
  });

  it("the next daemon ends a previous daemon's whole runtime group and clears the record", async () => {
    const dataDir = tempDataDir();
    const pid = await runtimeGroup();
    new RuntimePidRegistry(dataDir, { daemonPid: 1 }).record(pid, { agentId: 'oc', command: 'opencode' });
    expect(processTreeAlive(pid)).toBe(true);
    const reaped = await new RuntimePidRegistry(dataDir, { daemonPid: 2 }).reap();
    expect(reaped).toEqual([{ pid, agentId: 'oc', command: 'opencode', outcome: 'killed' }]);
    expect(processTreeAlive(pid)).toBe(false);
    expect(new RuntimePidRegistry(dataDir).records()).toEqual([]);
  });

  it('never signals a pid that now names another process (another start time)', async () => {
    const dataDir = tempDataDir();
    const pid = await runtimeGroup();
    const reg = new RuntimePidRegistry(dataDir, { daemonPid: 1 });
    reg.record(pid, { agentId: 'oc', command: 'opencode' });
    // The same pid, as if recorded for an earlier process that had it.
    const file = join(dataDir, RUNTIME_PIDS_DIR, `${pid}.json`);
    const rec = { ...reg.records()[0], startTime: 'linux:1' };
    writeFileSync(file, JSON.stringify(rec));
    const reaped = await new RuntimePidRegistry(dataDir, { daemonPid: 2 }).reap();
    expect(reaped).toEqual([{ pid, agentId: 'oc', command: 'opencode', outcome: 'reused' }]);
    expect(processTreeAlive(pid)).toBe(true);
    expect(reg.records()).toEqual([]);
  });

  it('a record of a process that is gone is dropped; a garbled file is dropped', async () => {
    const dataDir = tempDataDir();
    const pid = await runtimeGroup();
    const reg = new RuntimePidRegistry(dataDir, { daemonPid: 1 });
    reg.record(pid, { agentId: 'oc', command: 'opencode' });
    await signalProcessTree(pid, 'SIGKILL');
    while (processTreeAlive(pid)) await new Promise((r) => setTimeout(r, 10));
    writeFileSync(join(dataDir, RUNTIME_PIDS_DIR, '99.json'), '{not json');
    expect(await new RuntimePidRegistry(dataDir, { daemonPid: 2 }).reap()).toEqual([
      { pid, agentId: 'oc', command: 'opencode', outcome: 'gone' },
    ]);
    expect(readdirSync(join(dataDir, RUNTIME_PIDS_DIR))).toEqual([]);
  });

  it("leaves this daemon's own records alone", async () => {
    const dataDir = tempDataDir();
    const pid = await runtimeGroup();
    const reg = new RuntimePidRegistry(dataDir, { daemonPid: 5 });
    reg.record(pid, { agentId: 'oc', command: 'opencode' });
    expect(await reg.reap()).toEqual([]);
    expect(processTreeAlive(pid)).toBe(true);
  });
});
