/** Where this project is installed: the runtime CLIs of node_modules/.bin live there. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding this project's package.json (and node_modules/.bin of the runtime CLIs). */
export function projectRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'agentteam-desktop') return dir;
      } catch {
        // not ours; keep climbing
      }
    }
    if (dirname(dir) === dir) return process.cwd();
  }
}
