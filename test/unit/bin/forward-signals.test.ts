/**
 * The `agentteam` bin re-runs itself on Node 24 (bin/agentteam.mjs): a signal sent to it must
 * reach the real process and its exit must be the bin's, or stopping the bin orphans the daemon
 * (issue 16 "No orphans").
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { pidAlive } from '../../../main/serve/serve-state.js';

const FORWARD = fileURLToPath(new URL('../../../bin/forward-signals.mjs', import.meta.url));
const BIN = fileURLToPath(new URL('../../../bin/agentteam.mjs', import.meta.url));

/** The child: prints its pid, then on SIGTERM/SIGHUP prints the signal and exits 7; SIGINT is left at its default. */
const CHILD = `
process.on('SIGTERM', () => { console.log('got SIGTERM'); process.exit(7); });
process.on('SIGHUP', () => { console.log('got SIGHUP'); process.exit(8); });
console.log('child ' + process.pid);
setInterval(() => {}, 1000);
`;

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0))
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
});

function wrapper() {
  const script = `import(${JSON.stringify(FORWARD)}).then((m) => m.runForwardingSignals(process.execPath, ['-e', ${JSON.stringify(CHILD)}]));`;
  const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: proc.stdout }).on('line', (l) => {
    lines.push(l);
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const line = async (re: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      for (const l of lines) {
        const m = re.exec(l);
        if (m !== null) return m;
      }
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { proc, lines, exited, line };
}

describe('the bin re-run forwards signals and exits as its child did', () => {
  it('SIGTERM reaches the child once and the bin exits with its code', async () => {
    const w = wrapper();
    const childPid = Number((await w.line(/^child (\d+)$/))[1]);
    started.push(childPid);
    w.proc.kill('SIGTERM');
    expect(await w.exited).toEqual({ code: 7, signal: null });
    expect(w.lines.filter((l) => l === 'got SIGTERM')).toHaveLength(1);
    expect(pidAlive(childPid)).toBe(false);
  });

  it('SIGHUP is forwarded too', async () => {
    const w = wrapper();
    started.push(Number((await w.line(/^child (\d+)$/))[1]));
    w.proc.kill('SIGHUP');
    expect(await w.exited).toEqual({ code: 8, signal: null });
  });

  it('a child ended by a signal ends the bin with the same signal', async () => {
    const w = wrapper();
    const childPid = Number((await w.line(/^child (\d+)$/))[1]);
    started.push(childPid);
    w.proc.kill('SIGINT'); // the child keeps SIGINT's default action: it dies of it
    expect(await w.exited).toEqual({ code: null, signal: 'SIGINT' });
    expect(pidAlive(childPid)).toBe(false);
  });

  // The real bin on an older Node takes the re-run branch (this machine has Debian's Node 20).
  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find(
    (n) => Number(spawnSync(n, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout) < 24,
  );
  it.skipIf(oldNode === undefined)('bin/agentteam.mjs on Node < 24 re-runs on Node 24 and keeps its exit code', () => {
    const r = spawnSync(oldNode as string, [BIN, 'no-such-command'], { encoding: 'utf8' });
    // From the Node 24 child: the CLI's usage error (2), or "not built yet" (1) in a tree without out/.
    expect(r.stderr).not.toMatch(/needs Node 24/);
    expect([1, 2]).toContain(r.status);
    expect(r.stderr).toMatch(/agentteam/);
  });
});
