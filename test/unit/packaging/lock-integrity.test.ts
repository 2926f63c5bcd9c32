/**
 * The lockfile's integrity (issue 29, supply chain): which entries go without one and why, the
 * release path that fills and checks them, and npm's own refusal of a tarball that does not match.
 * A registry on 127.0.0.1 (node:http) serves real npm tarballs (ustar + gzip) and metadata.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addPlatformEntries,
  entriesWithoutIntegrity,
  fillIntegrity,
  sha512Integrity,
} from '../../../scripts/lock-platform-entries.mjs';
import { makeTempDir, type TempDir } from '../../fixtures/temp-dir.js';

const root = new URL('../../../', import.meta.url).pathname;

/** One ustar member: a 512-byte header then the content padded to 512. */
function tarMember(path: string, content: Buffer): Buffer {
  const header = Buffer.alloc(512);
  header.write(path, 0, 100, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${content.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write(`${(0).toString(8).padStart(11, '0')}\0`, 136);
  header.write('        ', 148); // checksum field counts as spaces while summing
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const padded = Buffer.alloc(Math.ceil(content.length / 512) * 512);
  content.copy(padded);
  return Buffer.concat([header, padded]);
}

/** An npm package tarball holding `package/package.json` (and an index.js saying `text`). */
function packageTarball(name: string, version: string, text: string): Buffer {
  const pkg = Buffer.from(JSON.stringify({ name, version, main: 'index.js' }));
  const index = Buffer.from(`module.exports = ${JSON.stringify(text)};\n`);
  return gzipSync(
    Buffer.concat([tarMember('package/package.json', pkg), tarMember('package/index.js', index), Buffer.alloc(1024)]),
  );
}

interface Published {
  /** What the registry's metadata says the tarball is. */
  readonly integrity: string;
  /** What the registry actually serves. */
  served: Buffer;
}

let server: Server;
let registry: string;
const published = new Map<string, Published>();
const tarballUrl = (name: string, version: string) => `${registry}${name}/-/${name}-${version}.tgz`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    const tar = /^\/([^/]+)\/-\/\1-(.+)\.tgz$/.exec(url);
    const meta = /^\/([^/]+)\/([^/]+)$/.exec(url);
    const found = tar
      ? published.get(`${tar[1]}@${tar[2]}`)
      : meta
        ? published.get(`${meta[1]}@${meta[2]}`)
        : undefined;
    if (!found) {
      res.writeHead(404).end('{"error":"not found"}');
    } else if (tar) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(found.served);
    } else {
      const [name, version] = [meta![1]!, meta![2]!];
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ name, version, dist: { tarball: tarballUrl(name, version), integrity: found.integrity } }),
        );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function publish(name: string, version: string, text: string): Buffer {
  const tgz = packageTarball(name, version, text);
  published.set(`${name}@${version}`, { integrity: sha512Integrity(tgz), served: tgz });
  return tgz;
}

describe('package-lock.json as committed', () => {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

  it('only the platform builds the mirror lacks (opencode, and napi-rs clipboard builds of the ACP CLIs) go without an integrity, each optional with its os and cpu', () => {
    const missing = entriesWithoutIntegrity(lock);
    expect(missing.length).toBeGreaterThan(0);
    for (const { key, name, platform } of missing) {
      expect(platform).toBe(true);
      expect(name).toMatch(
        /^(opencode-(darwin|linux|windows)-(arm64|x64)(-baseline)?(-musl)?|@teddyzhu\/clipboard-(darwin|linux|win32)-(arm64|x64)(-gnu|-msvc)?)$/,
      );
      expect(lock.packages[key]).toMatchObject({ optional: true, os: [expect.any(String)], cpu: [expect.any(String)] });
      expect(lock.packages[key].resolved).toBeUndefined();
    }
  });

  it('issue 41: the README states their true number and names each of them', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const paragraph = /\*\*The lockfile's integrity\.\*\*[\s\S]*?\n\n/.exec(readme)?.[0] ?? '';
    const missing = entriesWithoutIntegrity(lock);
    expect(paragraph).toContain(`except ${missing.length} platform builds`);
    // Names are written as the first in full, then `-suffix` for each sibling of the same package.
    const named = new Set<string>();
    let family = '';
    for (const [, word] of paragraph.matchAll(/`([^`\s]+)`/g)) {
      if (word === undefined) continue;
      if (word.startsWith('-')) named.add(`${family}${word}`);
      else if (/^(opencode|@teddyzhu\/clipboard)-/.test(word)) {
        family = /^(opencode|@teddyzhu\/clipboard)/.exec(word)?.[1] ?? '';
        named.add(word);
      }
    }
    expect([...named].sort()).toEqual(missing.map((m) => m.name).sort());
  });

  it('those entries are exactly what lock-platform-entries adds to a lock without them', () => {
    const stripped = structuredClone(lock);
    const missing = entriesWithoutIntegrity(lock).map((m) => m.key);
    for (const key of missing) delete stripped.packages[key];
    const { added, unknown } = addPlatformEntries(stripped);
    expect(unknown).toEqual([]);
    expect(added.sort()).toEqual([...missing].sort());
    for (const key of missing) expect(stripped.packages[key]).toEqual(lock.packages[key]);
  });
});

describe('--fill-integrity on a release machine', () => {
  const lockWith = (...names: string[]): { packages: Record<string, Record<string, unknown>> } => ({
    packages: {
      '': { name: 'app' },
      ...Object.fromEntries(names.map((n) => [`node_modules/${n}`, { version: '1.0.0', optional: true }])),
      'node_modules/kept': { version: '2.0.0', resolved: 'x', integrity: 'sha512-kept' },
    },
  });

  it('writes resolved and the checked integrity of every entry without one, and leaves the others', async () => {
    const tgz = publish('plat-a', '1.0.0', 'a');
    const lock = lockWith('plat-a');
    expect(await fillIntegrity(lock, registry)).toEqual(['node_modules/plat-a']);
    expect(lock.packages['node_modules/plat-a']).toEqual({
      version: '1.0.0',
      optional: true,
      resolved: tarballUrl('plat-a', '1.0.0'),
      integrity: sha512Integrity(tgz),
    });
    expect(lock.packages['node_modules/kept']?.integrity).toBe('sha512-kept');
    expect(entriesWithoutIntegrity(lock)).toEqual([]);
  });

  it('refuses a tarball that does not match the registry metadata, and one it cannot fetch, naming each', async () => {
    publish('plat-b', '1.0.0', 'b');
    published.get('plat-b@1.0.0')!.served = packageTarball('plat-b', '1.0.0', 'tampered');
    const lock = lockWith('plat-b', 'plat-gone');
    const error = await fillIntegrity(lock, registry).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/could not fill the integrity of 2 lock entries/);
    expect(error?.message).toMatch(/plat-b@1\.0\.0: tarball .* does not match the registry's integrity/);
    expect(error?.message).toMatch(/plat-gone@1\.0\.0: metadata .* answered HTTP 404/);
    expect(lock.packages['node_modules/plat-b']).not.toHaveProperty('integrity');
  });
});

/** `npm ci` in `dir` against the test registry, with its own cache, config and HOME. */
function npmCi(dir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      'npm',
      [
        'ci',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--fetch-retries=0',
        `--registry=${registry}`,
        `--cache=${join(dir, '.cache')}`,
      ],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          HOME: dir,
          npm_config_userconfig: join(dir, '.npmrc'),
          npm_config_globalconfig: join(dir, '.npmrc-global'),
          npm_config_update_notifier: 'false',
        },
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function projectLockedTo(dir: string, name: string, integrity: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '.npmrc'), '');
  writeFileSync(join(dir, '.npmrc-global'), '');
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'app', version: '0.0.0', dependencies: { [name]: '1.0.0' } }),
  );
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({
      name: 'app',
      version: '0.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', version: '0.0.0', dependencies: { [name]: '1.0.0' } },
        [`node_modules/${name}`]: { version: '1.0.0', resolved: tarballUrl(name, '1.0.0'), integrity },
      },
    }),
  );
}

describe('npm ci and a lock entry with an integrity', () => {
  const temps: TempDir[] = [];
  const appDir = (prefix: string) => {
    const t = makeTempDir(prefix);
    temps.push(t);
    return join(t.path, 'app');
  };
  afterEach(() => temps.splice(0).forEach((t) => t.remove()));

  it('installs the tarball the lock names', async () => {
    const tgz = publish('tiny-ok', '1.0.0', 'original');
    const dir = appDir('lock-ok-');
    projectLockedTo(dir, 'tiny-ok', sha512Integrity(tgz));
    const { code, output } = await npmCi(dir);
    expect(code, output).toBe(0);
    expect(readFileSync(join(dir, 'node_modules', 'tiny-ok', 'index.js'), 'utf8')).toContain('original');
  });

  it('refuses a tampered tarball (EINTEGRITY) and installs nothing of it', async () => {
    const tgz = publish('tiny-bad', '1.0.0', 'original');
    published.get('tiny-bad@1.0.0')!.served = packageTarball('tiny-bad', '1.0.0', 'tampered');
    const dir = appDir('lock-bad-');
    projectLockedTo(dir, 'tiny-bad', sha512Integrity(tgz));
    const { code, output } = await npmCi(dir);
    expect(code).not.toBe(0);
    expect(output).toMatch(/EINTEGRITY/);
    expect(existsSync(join(dir, 'node_modules', 'tiny-bad', 'index.js'))).toBe(false);
  });
});
