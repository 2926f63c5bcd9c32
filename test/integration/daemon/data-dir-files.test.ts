/**
 * issue 16 "Files": the data dir is 0700 and what the daemon writes in it is 0600/0700, even
 * when the dir already existed with looser modes; agentteam.json readable by others is warned
 * about once, never re-moded; a refused config writes nothing (no serve-token, no store).
 * The real daemon (demo agent) and the real `agentteam serve` command, in process.
 */
import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDaemon, type DaemonLog } from '../../../main/daemon/index.js';
import { tightenDataDir } from '../../../main/daemon/data-dir-perms.js';
import { runCli } from '../../../main/serve/cli-main.js';

const dirs: string[] = [];
afterEach(async () => {
  // A first run seeds an agent per CLI on PATH: an ACP CLI may still be unpacking its cache as its process group ends.
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true, maxRetries: 5 });
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'agentteam-files-'));
  dirs.push(d);
  return d;
}

const mode = (p: string) => statSync(p).mode & 0o777;

function recordingLog(): DaemonLog & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debugEnabled: false, info() {}, debug() {}, error() {}, warn: (m) => void warnings.push(m) };
}

/** Every path under `dir` except inside the runtime CLIs' own homes (theirs to mode). */
function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    out.push(p);
    if (statSync(p).isDirectory() && name !== 'home') walk(p, out);
  }
  return out;
}

describe.skipIf(process.platform === 'win32')('data dir modes (issue 16)', () => {
  it('a pre-existing 0755 dir with 0644 files: after a start everything the daemon wrote is 0600/0700', async () => {
    const dataDir = await tempDir();
    chmodSync(dataDir, 0o755);
    writeFileSync(
      join(dataDir, 'agentteam.json'),
      JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }] }),
      { mode: 0o644 },
    );
    chmodSync(join(dataDir, 'agentteam.json'), 0o644);
    writeFileSync(join(dataDir, 'serve-token'), 'x'.repeat(43), { mode: 0o644 });
    writeFileSync(join(dataDir, 'settings.json'), '{}', { mode: 0o644 });
    mkdirSync(join(dataDir, 'runtimes', 'old', 'home'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'runtimes', 'old', 'session.json'), '{}', { mode: 0o644 });
    const log = recordingLog();
    const daemon = await createDaemon({ dataDir, log });
    try {
      // One write so the store's WAL and SHM exist.
      await daemon.api['messages.send']({ target: '#general', content: 'hello' });
      expect(mode(dataDir)).toBe(0o700);
      const files = walk(dataDir).filter((p) => !p.endsWith('agentteam.json'));
      expect(files.map((p) => p.slice(dataDir.length + 1))).toEqual(
        expect.arrayContaining([
          'agentteam.db',
          'agentteam.db-wal',
          'agentteam.db-shm',
          'serve-token',
          'settings.json',
        ]),
      );
      const loose = files.filter((p) => mode(p) !== (statSync(p).isDirectory() ? 0o700 : 0o600));
      expect(loose.map((p) => `${p.slice(dataDir.length + 1)} 0${mode(p).toString(8)}`)).toEqual([]);
      // The person's file keeps its mode; one warning names it and the fix.
      expect(mode(join(dataDir, 'agentteam.json'))).toBe(0o644);
      const warned = log.warnings.filter((w) => w.includes('agentteam.json'));
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatch(/can be read by other users.*chmod 600/);
    } finally {
      await daemon.stop();
    }
  });

  it('a private agentteam.json draws no warning; a symlink in the data dir is never followed', async () => {
    const dataDir = await tempDir();
    const outside = await tempDir();
    writeFileSync(join(outside, 'theirs'), 'x', { mode: 0o644 });
    chmodSync(join(outside, 'theirs'), 0o644);
    symlinkSync(join(outside, 'theirs'), join(dataDir, 'link'));
    writeFileSync(join(dataDir, 'agentteam.json'), '{"agents":[]}', { mode: 0o600 });
    const log = recordingLog();
    tightenDataDir(dataDir, { log });
    expect(log.warnings).toEqual([]);
    expect(mode(join(outside, 'theirs'))).toBe(0o644);
  });

  it('a first run seeds agentteam.json 0600 in a 0700 dir', async () => {
    const dataDir = join(await tempDir(), 'fresh');
    const daemon = await createDaemon({ dataDir });
    await daemon.stop();
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'agentteam.json'))).toBe(0o600);
  });

  it('Windows: nothing is re-moded (ACLs apply there)', async () => {
    const dataDir = await tempDir();
    writeFileSync(join(dataDir, 'serve-token'), 'x', { mode: 0o644 });
    chmodSync(join(dataDir, 'serve-token'), 0o644);
    expect(tightenDataDir(dataDir, { platform: 'win32' })).toEqual([]);
    expect(mode(join(dataDir, 'serve-token'))).toBe(0o644);
  });
});

describe('a refused config writes nothing (issue 16)', () => {
  it('agentteam serve with an invalid agentteam.json exits 1 and leaves the dir as it was', async () => {
    const dataDir = await tempDir();
    writeFileSync(join(dataDir, 'agentteam.json'), JSON.stringify({ agents: [{ id: 'x', runtime: 'nope' }] }));
    const before = readdirSync(dataDir);
    const errLines: string[] = [];
    const code = await runCli(['serve', '--data-dir', dataDir, '--port', '0'], {
      io: { out: () => undefined, err: (l) => errLines.push(l) },
      serve: { rendererDir: null, stopRequested: new Promise(() => undefined) },
    });
    expect(code).toBe(1);
    expect(errLines.join('\n')).toMatch(/agentteam\.json/);
    expect(readdirSync(dataDir)).toEqual(before);
  });
});
