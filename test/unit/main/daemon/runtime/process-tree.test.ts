/** Each platform branch of process-tree.ts, with the platform injected (issue 16: Windows is a packaging target). */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  hostPlatform,
  processStartTime,
  processTreeAlive,
  signalProcessTree,
  type ProcessPlatform,
} from '../../../../../main/daemon/runtime/process-tree.js';

function fakePlatform(platform: NodeJS.Platform, over: Partial<ProcessPlatform> = {}) {
  const calls: string[] = [];
  const p: ProcessPlatform = {
    platform,
    kill: (pid, signal) => void calls.push(`kill ${pid} ${signal}`),
    treeKill: (pid, signal, cb) => {
      calls.push(`treeKill ${pid} ${signal}`);
      cb();
    },
    readFile: () => {
      throw new Error('ENOENT');
    },
    readDir: () => {
      throw new Error('ENOENT');
    },
    exec: (command, args) => {
      calls.push(`exec ${command} ${args.join(' ')}`);
      return '';
    },
    ...over,
  };
  return { p, calls };
}

describe('signalProcessTree', () => {
  it('POSIX: signals the process group (negative pid)', async () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const { p, calls } = fakePlatform(platform);
      await signalProcessTree(4242, 'SIGTERM', p);
      expect(calls).toEqual(['kill -4242 SIGTERM']);
    }
  });

  it('POSIX: a group already gone is not an error', async () => {
    const { p } = fakePlatform('linux', {
      kill: () => {
        throw Object.assign(new Error('ESRCH'), { code: 'ESRCH' });
      },
    });
    await expect(signalProcessTree(1, 'SIGKILL', p)).resolves.toBeUndefined();
  });

  it('Windows: kills the tree with tree-kill (taskkill /T /F), never a negative pid', async () => {
    const { p, calls } = fakePlatform('win32');
    await signalProcessTree(4242, 'SIGTERM', p);
    expect(calls).toEqual(['treeKill 4242 SIGKILL']);
  });
});

describe('processStartTime', () => {
  const stat = '4242 (open code) serve) S 1 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10';
  it('Linux: field 22 of /proc/<pid>/stat, whatever the command name holds', () => {
    const { p } = fakePlatform('linux', { readFile: (path) => (path === '/proc/4242/stat' ? stat : '') });
    expect(processStartTime(4242, p)).toBe('linux:987654');
  });

  it('Linux: none for a missing process or a zombie', () => {
    expect(processStartTime(4242, fakePlatform('linux').p)).toBeNull();
    const zombie = stat.replace(') S ', ') Z ');
    expect(processStartTime(4242, fakePlatform('linux', { readFile: () => zombie }).p)).toBeNull();
  });

  it('macOS: ps -o lstart=', () => {
    const { p, calls } = fakePlatform('darwin', {
      exec: (c, a) => (calls.push(`${c} ${a.join(' ')}`), ' Mon Jan  5 10:00:01 2026\n'),
    });
    expect(processStartTime(77, p)).toBe('ps:Mon Jan  5 10:00:01 2026');
    expect(calls).toEqual(['ps -o lstart= -p 77']);
  });

  it('Windows: the StartTime FILETIME from PowerShell; a failed lookup is null', () => {
    const ok = fakePlatform('win32', { exec: () => '133800000000000000\r\n' });
    expect(processStartTime(77, ok.p)).toBe('win32:133800000000000000');
    const missing = fakePlatform('win32', {
      exec: () => {
        throw new Error('Cannot find a process with the process identifier 77');
      },
    });
    expect(processStartTime(77, missing.p)).toBeNull();
  });

  it('refuses pids that are not positive integers', () => {
    expect(processStartTime(0, hostPlatform)).toBeNull();
    expect(processStartTime(-1, hostPlatform)).toBeNull();
  });
});

describe('on this machine', () => {
  it('a real detached process: a stable start time, alive until its group is killed', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
    const pid = child.pid as number;
    const exited = new Promise((r) => child.once('exit', r));
    const start = processStartTime(pid);
    expect(start).not.toBeNull();
    expect(processStartTime(pid)).toBe(start);
    expect(processTreeAlive(pid)).toBe(true);
    await signalProcessTree(pid, 'SIGKILL');
    await exited;
    expect(processTreeAlive(pid)).toBe(false);
    expect(processStartTime(pid)).toBeNull();
  });
});
