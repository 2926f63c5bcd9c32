// The lockfile's platform entries and their integrity (issue 29, supply chain).
//
// The registry mirror on the development machines lacks opencode's non-Linux platform packages
// (opencode-darwin-*, -windows-*, the -musl and -baseline builds), so `npm install` writes no lock
// entry for them and `npm ci` on another platform would refuse the lock. Three modes:
//
//   node scripts/lock-platform-entries.mjs [package-lock.json]
//       adds the missing optional platform entries (version, os, cpu, libc) WITHOUT `resolved` or
//       `integrity`: they cannot be fetched here. npm then trusts the registry's TLS alone for those
//       packages. Run after any `npm install` that rewrites package-lock.json.
//   node scripts/lock-platform-entries.mjs --fill-integrity [--registry URL] [package-lock.json]
//       on a release machine (one that reaches the full registry): for every entry without an
//       integrity, reads the registry's metadata for that exact version, downloads the tarball,
//       checks its sha512 against the registry's `dist.integrity`, and writes `resolved` and
//       `integrity`. Fails, naming the package, when one cannot be fetched or does not match.
//   node scripts/lock-platform-entries.mjs --check [package-lock.json]
//       lists the entries without an integrity; exits 1 when there is any.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The optional platform packages a lock entry's `optionalDependencies` names but the lock lacks, as entries. */
export function addPlatformEntries(lock) {
  const pk = lock.packages;
  const added = [];
  const unknown = [];
  for (const entry of Object.values(pk)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const key = `node_modules/${name}`;
      if (pk[key]) continue;
      // opencode's names (`-baseline`, `-musl`) and napi-rs's (`-gnu`, `-musl`, `-msvc`).
      const m = /-(darwin|linux|windows|win32)-(arm64|x64)(-baseline)?(?:-(musl|gnu|msvc))?$/.exec(name);
      if (!m) {
        unknown.push(name);
        continue;
      }
      const e = {
        version,
        cpu: [m[2]],
        ...(entry.dev ? { dev: true } : {}),
        optional: true,
        os: [m[1] === 'windows' ? 'win32' : m[1]],
      };
      if (m[4] === 'musl' || m[4] === 'gnu') e.libc = [m[4] === 'musl' ? 'musl' : 'glibc'];
      pk[key] = e;
      added.push(key);
    }
  }
  lock.packages = Object.fromEntries(
    Object.entries(pk).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  return { added, unknown };
}

/** The package name of a lock key (`node_modules/a/node_modules/@s/b` → `@s/b`). */
const nameOfKey = (key) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

/**
 * Lock entries that npm fetches (not the root, not links, not bundled) and that carry no integrity;
 * `platform` marks an optional build for one os/cpu (what addPlatformEntries writes).
 */
export function entriesWithoutIntegrity(lock) {
  return Object.entries(lock.packages)
    .filter(([key, e]) => key !== '' && !e.link && !e.inBundle && !e.integrity)
    .map(([key, e]) => ({
      key,
      name: nameOfKey(key),
      version: e.version,
      platform: Boolean(e.optional && e.os?.length && e.cpu?.length),
    }));
}

/** `sha512-<base64>` of bytes, as npm writes `integrity`. */
export const sha512Integrity = (bytes) => `sha512-${createHash('sha512').update(bytes).digest('base64')}`;

/**
 * Fills `resolved` and `integrity` of every entry without an integrity from `registry`, after
 * checking each downloaded tarball against the registry's own `dist.integrity` (sha512 only).
 * Throws one error naming every package that could not be filled.
 */
export async function fillIntegrity(lock, registry, fetchImpl = globalThis.fetch) {
  const base = registry.endsWith('/') ? registry : `${registry}/`;
  const problems = [];
  const filled = [];
  for (const { key, name, version } of entriesWithoutIntegrity(lock)) {
    const where = `${name}@${version}`;
    try {
      const metaUrl = new URL(`${name.replace('/', '%2f')}/${encodeURIComponent(version)}`, base);
      const metaRes = await fetchImpl(metaUrl);
      if (!metaRes.ok) throw new Error(`metadata ${metaUrl} answered HTTP ${metaRes.status}`);
      const dist = (await metaRes.json()).dist ?? {};
      if (typeof dist.tarball !== 'string' || !/^sha512-/.test(dist.integrity ?? '')) {
        throw new Error(`metadata ${metaUrl} names no tarball with a sha512 integrity`);
      }
      const tarRes = await fetchImpl(dist.tarball);
      if (!tarRes.ok) throw new Error(`tarball ${dist.tarball} answered HTTP ${tarRes.status}`);
      const actual = sha512Integrity(Buffer.from(await tarRes.arrayBuffer()));
      if (actual !== dist.integrity) {
        throw new Error(
          `tarball ${dist.tarball} does not match the registry's integrity (${actual} ≠ ${dist.integrity})`,
        );
      }
      lock.packages[key] = { ...lock.packages[key], resolved: dist.tarball, integrity: actual };
      filled.push(key);
    } catch (err) {
      problems.push(`${where}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `could not fill the integrity of ${problems.length} lock entr${problems.length === 1 ? 'y' : 'ies'}:\n  ${problems.join('\n  ')}`,
    );
  }
  return filled;
}

async function main(argv) {
  const flag = (name) => argv.includes(name);
  const registryAt = argv.indexOf('--registry');
  const registry =
    registryAt >= 0 ? argv[registryAt + 1] : (process.env.npm_config_registry ?? 'https://registry.npmjs.org/');
  const file = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--registry')[0] ?? 'package-lock.json';
  const lock = JSON.parse(readFileSync(file, 'utf8'));
  const write = () => writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);

  if (flag('--check')) {
    const missing = entriesWithoutIntegrity(lock);
    for (const m of missing) console.log(`no integrity: ${m.name}@${m.version}`);
    console.log(`${missing.length} lock entr${missing.length === 1 ? 'y' : 'ies'} without an integrity in ${file}`);
    return missing.length === 0 ? 0 : 1;
  }
  if (flag('--fill-integrity')) {
    const filled = await fillIntegrity(lock, registry);
    write();
    console.log(
      `filled and checked the integrity of ${filled.length} entr${filled.length === 1 ? 'y' : 'ies'} in ${file} from ${registry}`,
    );
    return 0;
  }
  const { added, unknown } = addPlatformEntries(lock);
  for (const name of unknown) console.error(`cannot infer the platform of ${name}; add its lock entry by hand`);
  write();
  console.log(`added ${added.length} platform entries to ${file}`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
