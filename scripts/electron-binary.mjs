/**
 * Finds a runnable Electron binary without triggering electron's download-on-first-use:
 * `ELECTRON_OVERRIDE_DIST_PATH`, else the binary the `electron` package recorded in path.txt.
 * Returns its path, or null where none exists (as on machines with no binary download).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function electronBinary(root) {
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const exe = join(override, process.platform === 'win32' ? 'electron.exe' : 'electron');
    return existsSync(exe) ? exe : null;
  }
  const pkg = join(root, 'node_modules', 'electron');
  const pathTxt = join(pkg, 'path.txt');
  if (!existsSync(pathTxt)) return null;
  const exe = join(pkg, 'dist', readFileSync(pathTxt, 'utf8').trim());
  return existsSync(exe) ? exe : null;
}
