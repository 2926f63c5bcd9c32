// Adds lockfile entries for optional platform packages the registry mirror here lacks
// (opencode-darwin-*, -windows-*, ...), so `npm ci` accepts the lock on every machine.
// Run after any `npm install` that rewrites package-lock.json:
//   node scripts/lock-platform-entries.mjs package-lock.json
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pk = lock.packages;
let added = 0;
for (const entry of Object.values(pk)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (pk[key]) continue;
    const m = /-(darwin|linux|windows|win32)-(arm64|x64)(-baseline)?(-musl)?$/.exec(name);
    if (!m) {
      console.error(`cannot infer the platform of ${name}; add its lock entry by hand`);
      continue;
    }
    const e = {
      version,
      cpu: [m[2]],
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [m[1] === 'windows' ? 'win32' : m[1]],
    };
    if (m[4]) e.libc = ['musl'];
    pk[key] = e;
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(pk).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries to ${file}`);
