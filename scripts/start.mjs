#!/usr/bin/env node
/**
 * `npm start`: the desktop app where an Electron binary runs; elsewhere one line says so and
 * the same UI is served by `agentteam serve` on the default data dir.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { electronBinary } from './electron-binary.mjs';
import { defaultDataDir } from './default-data-dir.mjs';

const root = new URL('..', import.meta.url).pathname;
if (!existsSync(join(root, 'out', 'main', 'cli.js'))) {
  const b = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const electron = electronBinary(root);
const child =
  electron !== null
    ? spawn(electron, [join(root, 'out', 'main', 'index.js')], { cwd: root, stdio: 'inherit' })
    : (console.log('No Electron binary can run here; serving the same UI with "agentteam serve" instead.'),
      spawn(
        process.execPath,
        [join(root, 'bin', 'agentteam.mjs'), 'serve', '--data-dir', defaultDataDir(), ...process.argv.slice(2)],
        { cwd: root, stdio: 'inherit' },
      ));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
