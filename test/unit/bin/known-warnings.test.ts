/**
 * issue 40 item 9: `npm start` printed a punycode deprecation warning (DEP0040, from a bundled
 * dependency) at every start. The real bin, started the way `npm start` starts it, prints none;
 * the filter drops exactly that code and hands every other warning to Node's printer.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { quietKnownWarnings } from '../../../bin/known-warnings.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

it('drops DEP0040 only; any other warning reaches the printer', () => {
  const proc = new EventEmitter();
  const printed: unknown[] = [];
  proc.on('warning', (w: unknown) => printed.push(w));
  quietKnownWarnings(proc as unknown as NodeJS.Process);
  const punycode = Object.assign(new Error('The `punycode` module is deprecated.'), { code: 'DEP0040' });
  const other = Object.assign(new Error('Buffer() is deprecated'), { code: 'DEP0005' });
  const plain = new Error('something else');
  for (const w of [punycode, other, plain]) proc.emit('warning', w);
  expect(printed).toEqual([other, plain]);
});

it.skipIf(!existsSync(join(ROOT, 'out', 'main', 'cli.js')))(
  'agentteam serve starts without the punycode deprecation warning',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentteam-warnings-'));
    // The demo alone: no runtime CLI is probed, the start stays short.
    writeFileSync(
      join(dir, 'agentteam.json'),
      JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }] }),
    );
    try {
      const child = spawn(
        process.execPath,
        [join(ROOT, 'bin', 'agentteam.mjs'), 'serve', '--data-dir', dir, '--port', '0'],
        {
          cwd: ROOT,
          env: { ...process.env, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config') },
        },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // Listening means the daemon (and the bundle that requires punycode) is loaded.
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => String(d).includes('is serving') && resolve());
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).not.toMatch(/DEP0040|punycode|DeprecationWarning/);
      expect(stderr).toMatch(/serve: stopped/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  60_000,
);
