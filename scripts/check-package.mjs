#!/usr/bin/env node
/**
 * Packaging check (issue 2 / issue 9), offline: builds the app if needed, runs
 * `electron-builder --linux --dir` against a stub Electron (no binary can be downloaded here;
 * research/electron-feasibility.md §6), then checks what it produced:
 *   - `app.asar` holds the built main, preload and renderer (and nothing from the sources);
 *   - no devDependency is packed under node_modules;
 *   - the fuses of electron-builder.yml were really flipped in the executable (the stub
 *     carries Electron's fuse wire with Electron's defaults, so flipping is observable).
 * Prints one line per check and exits non-zero on any failure.
 *
 * Usage: node scripts/check-package.mjs [--keep]   (--keep leaves the stub for inspection)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(join(root, 'package.json'));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;

/** Fuse states as @electron/fuses writes them: '0' off, '1' on. */
const FUSE_OFF = 0x30;
const FUSE_ON = 0x31;
/** @electron/fuses' sentinel and V1 wire order; the stub starts with Electron's own defaults. */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_WIRE = [
  ['runAsNode', FUSE_ON],
  ['enableCookieEncryption', FUSE_OFF],
  ['enableNodeOptionsEnvironmentVariable', FUSE_ON],
  ['enableNodeCliInspectArguments', FUSE_ON],
  ['enableEmbeddedAsarIntegrityValidation', FUSE_OFF],
  ['onlyLoadAppFromAsar', FUSE_OFF],
  ['loadBrowserProcessSpecificV8Snapshot', FUSE_OFF],
  ['grantFileProtocolExtraPrivileges', FUSE_ON],
];

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok    ' : 'FAILED'} ${what}`);
  if (!ok) failures.push(what);
};

/** A folder electron-builder accepts as `electronDist`: an `electron` executable and a `version` file. */
function makeStubElectron(dir) {
  mkdirSync(dir, { recursive: true });
  const wire = Buffer.from([1, FUSE_WIRE.length, ...FUSE_WIRE.map(([, state]) => state)]);
  const script = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stub Electron for packaging checks; it cannot run the app" >&2\nexit 1\n# '),
    Buffer.from(SENTINEL),
    wire,
    Buffer.from('\n'),
  ]);
  writeFileSync(join(dir, 'electron'), script);
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), electronVersion);
  writeFileSync(join(dir, 'LICENSE'), 'stub');
  mkdirSync(join(dir, 'resources'), { recursive: true });
}

function readFuses(executable) {
  const bytes = readFileSync(executable);
  const at = bytes.indexOf(SENTINEL);
  if (at < 0) return null;
  const wire = at + SENTINEL.length;
  const length = bytes[wire + 1];
  return Object.fromEntries(FUSE_WIRE.slice(0, length).map(([name], i) => [name, bytes[wire + 2 + i] === FUSE_ON]));
}

/**
 * Every package the production dependencies need at run time (their transitive closure, found
 * the way Node resolves them), as the `package.json` paths they must have inside app.asar.
 */
function productionClosure() {
  const nodeModules = realpathSync(join(root, 'node_modules'));
  const top = dirname(nodeModules);
  const seen = new Map();
  const find = (name, fromDir) => {
    for (let dir = fromDir; dir.startsWith(top); dir = dirname(dir)) {
      const candidate = join(dir, 'node_modules', name, 'package.json');
      if (existsSync(candidate)) return dirname(candidate);
      if (dir === top) break;
    }
    return null;
  };
  const visit = (name, fromDir, optional) => {
    const dir = find(name, fromDir);
    if (dir === null) {
      if (!optional) seen.set(`(unresolved) ${name}`, null);
      return;
    }
    const key = `/node_modules/${relative(nodeModules, dir).replaceAll('\\', '/')}/package.json`;
    if (seen.has(key)) return;
    seen.set(key, dir);
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys(meta.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(meta.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, top, false);
  return [...seen.keys()];
}

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

if (!existsSync(join(root, 'out', 'main', 'index.js')) || !existsSync(join(root, 'out', 'preload', 'index.cjs')) || !existsSync(join(root, 'out', 'renderer', 'index.html'))) {
  console.log('=== build: electron-vite build');
  if (run(bin('electron-vite'), ['build']) !== 0) {
    console.log('FAILED electron-vite build');
    process.exit(1);
  }
}

const stub = mkdtempSync(join(tmpdir(), 'agentteam-stub-electron-'));
const keep = process.argv.includes('--keep');
try {
  makeStubElectron(stub);
  const unpacked = join(root, 'dist', 'linux-unpacked');
  rmSync(unpacked, { recursive: true, force: true });
  console.log(`=== electron-builder --linux --dir (stub Electron ${electronVersion} at ${stub})`);
  const code = run(bin('electron-builder'), ['--linux', '--dir', '--publish', 'never', `-c.electronDist=${stub}`, `-c.electronVersion=${electronVersion}`], {
    // Never reach for the network: no auto-detected CI publishing, no update checks.
    CSC_IDENTITY_AUTO_DISCOVERY: 'false',
    ELECTRON_BUILDER_ALLOW_UNRESOLVED_DEPENDENCIES: 'false',
  });
  check(code === 0, `electron-builder --linux --dir exits 0 (exit ${code})`);

  const asarPath = join(unpacked, 'resources', 'app.asar');
  check(existsSync(asarPath), `produces ${asarPath.replace(root, '')}`);
  if (existsSync(asarPath)) {
    const { listPackage } = require('@electron/asar');
    const entries = new Set(listPackage(asarPath, { isPack: false }).map((p) => p.replaceAll('\\', '/')));
    for (const file of ['/package.json', '/out/main/index.js', '/out/main/cli.js', '/out/preload/index.cjs', '/out/renderer/index.html']) {
      check(entries.has(file), `app.asar holds ${file}`);
    }
    check([...entries].some((p) => /^\/out\/renderer\/assets\/.+\.js$/.test(p)), 'app.asar holds the renderer bundle (out/renderer/assets/*.js)');
    const sources = [...entries].filter((p) => /^\/(main|preload|renderer|shared|test|bench|scripts|\.ci)\//.test(p) || /^\/out\/.*\.map$/.test(p));
    check(sources.length === 0, `app.asar holds no sources, tests or source maps${sources.length ? `: ${sources.slice(0, 5).join(', ')}` : ''}`);
    const dev = Object.keys(pkg.devDependencies ?? {}).filter((name) => entries.has(`/node_modules/${name}`) || entries.has(`/node_modules/${name}/package.json`));
    check(dev.length === 0, `app.asar holds no devDependency${dev.length ? `: ${dev.join(', ')}` : ''}`);
    const direct = Object.keys(pkg.dependencies ?? {}).filter((name) => !entries.has(`/node_modules/${name}/package.json`));
    check(direct.length === 0, `app.asar holds every production dependency${direct.length ? ` (missing: ${direct.join(', ')})` : ''}`);
    const closure = productionClosure();
    const missing = closure.filter((p) => !entries.has(p));
    const what = `app.asar holds all ${closure.length} packages the production dependencies need at run time`;
    if (missing.length === 0) check(true, what);
    else if (lstatSync(join(root, 'node_modules')).isSymbolicLink()) {
      // npm cannot list a tree behind a symlinked node_modules (a shared worktree install), so
      // electron-builder's collector finds only the direct dependencies. A real install (npm ci) has none of this.
      console.log(`SKIP   ${what}: node_modules is a symlink here, npm ls cannot resolve the tree (${missing.length} not packed, e.g. ${missing.slice(0, 3).join(', ')})`);
    } else check(false, `${what} (missing ${missing.length}: ${missing.slice(0, 8).join(', ')})`);
  }

  const executable = join(unpacked, 'agentteam-desktop');
  const fuses = existsSync(executable) ? readFuses(executable) : null;
  check(fuses !== null, 'the packaged executable carries a fuse wire');
  if (fuses !== null) {
    const { load } = await import('./electron-builder-config.mjs');
    const wanted = (await load(root)).electronFuses ?? {};
    for (const [name, value] of Object.entries(wanted)) check(fuses[name] === value, `fuse ${name} is ${value ? 'on' : 'off'} in the packaged executable`);
  }
} finally {
  if (!keep) rmSync(stub, { recursive: true, force: true });
}

console.log(failures.length === 0 ? 'package check: all checks hold' : `package check: ${failures.length} check(s) FAILED`);
process.exitCode = failures.length === 0 ? 0 : 1;
