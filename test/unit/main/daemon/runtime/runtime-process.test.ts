import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../../../main/daemon/runtime/free-port.js';
import { RuntimeProcess, STDERR_TAIL_BYTES } from '../../../../../main/daemon/runtime/runtime-process.js';

function processState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
  } catch {
    return 'gone';
  }
}

/** Whether a process runs: running, sleeping, or in an uninterruptible wait on a loaded machine. */
const runs = (pid: number): boolean => /^[RSD]$/.test(processState(pid));

/**
 * Polls `done` every 20 ms until it holds or `boundMs` passes; returns its last answer. A
 * SIGKILL is delivered asynchronously: on a loaded machine the group can take a while to die.
 */
async function eventually(done: () => boolean, boundMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe('RuntimeProcess', () => {
  it('stop() ends the process and the children it started (no orphans)', async () => {
    // The child shell starts a grandchild and prints its pid once both run.
    const proc = RuntimeProcess.spawn({
      command: 'sh',
      args: ['-c', 'sleep 60 & echo $!; wait'],
      env: { PATH: process.env.PATH ?? '' },
      cwd: process.cwd(),
      killGraceMs: 2000,
    });
    const grandchild = await new Promise<number>((resolve) =>
      proc.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
    );
    expect(runs(grandchild)).toBe(true);
    await proc.stop();
    // The whole group dies within the bound (not necessarily at once: the kill is asynchronous).
    // Gone, or a zombie waiting for init to reap it: either way it runs nothing.
    expect(await eventually(() => !proc.groupAlive() && !runs(grandchild))).toBe(true);
    expect(processState(grandchild)).not.toMatch(/^[RSD]$/);
  });

  it('keeps only a bounded stderr tail', async () => {
    const proc = RuntimeProcess.spawn({
      command: 'sh',
      args: ['-c', `head -c ${STDERR_TAIL_BYTES * 2} /dev/zero | tr '\\0' x >&2; printf END >&2`],
      env: { PATH: process.env.PATH ?? '' },
      cwd: process.cwd(),
    });
    await proc.stderrEnded;
    expect(proc.stderrTail.length).toBe(STDERR_TAIL_BYTES);
    expect(proc.stderrTail.endsWith('END')).toBe(true);
  });

  it('a missing command is a spawn error and an immediate exit, not a throw', async () => {
    const proc = RuntimeProcess.spawn({
      command: '/nonexistent/agentteam-runtime',
      args: [],
      env: {},
      cwd: process.cwd(),
    });
    await proc.exited;
    expect(proc.spawnError?.message).toMatch(/ENOENT/);
  });
});

describe('freePort', () => {
  it('returns a 127.0.0.1 port that can be bound', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(port).toBeGreaterThan(0);
  });
});
