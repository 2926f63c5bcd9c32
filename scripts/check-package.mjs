#!/usr/bin/env node
/**
 * Packaging check (issue 2 / issue 9), offline: builds the app if needed, runs
 * `electron-builder --linux --dir` against a stub Electron (no binary can be downloaded here;
 * research/electron-feasibility.md §6), then checks what it produced:
 *   - `app.asar` holds the built main, preload and renderer (and nothing from the sources);
 *   - no devDependency is packed under node_modules, and no node_modules at all: the main
 *     process is bundled and loads only `electron` and Node built-ins;
 *   - the fuses of electron-builder.yml were really flipped in the executable (the stub
 *     carries Electron's fuse wire with Electron's defaults, so flipping is observable);
 *   - every package-lock.json entry has an integrity, but for the optional platform builds the
 *     registry mirror here lacks; with --release (a release machine) none may lack one.
 * Prints one line per check and exits non-zero on any failure.
 *
 * Usage: node scripts/check-package.mjs [--keep] [--release]   (--keep leaves the stub for inspection)
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entriesWithoutIntegrity } from './lock-platform-entries.mjs';

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
 * The bare module specifiers the built main process still loads at run time (import, export
 * from, require, dynamic import). A self-contained bundle loads only `electron` and Node
 * built-ins; strings inside generated code (ajv's `require("ajv/…")` templates) are not loads.
 */
function externalSpecifiers(dir) {
  const found = new Set();
  const files = readdirSync(dir, { recursive: true })
    .filter((f) => String(f).endsWith('.js'))
    .map((f) => join(dir, String(f)));
  const load =
    /(?:^|[;\s])(?:import|export)\s[^'"`;]*?from\s*["']([^"'./][^"']*)["']|(?:^|[^.\w`$])(?:__require|require|import)\(\s*["']([^"'./][^"']*)["']\s*\)/gm;
  for (const file of files) {
    // Comment lines (JSDoc examples such as "* import … from 'ajv'") are not loads.
    const code = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\*|\/\*|\/\/)/.test(line))
      .join('\n');
    for (const m of code.matchAll(load)) found.add(m[1] ?? m[2]);
  }
  return [...found].sort();
}

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

if (
  !existsSync(join(root, 'out', 'main', 'index.js')) ||
  !existsSync(join(root, 'out', 'preload', 'index.cjs')) ||
  !existsSync(join(root, 'out', 'renderer', 'index.html'))
) {
  console.log('=== build: electron-vite build');
  if (run(bin('electron-vite'), ['build']) !== 0) {
    console.log('FAILED electron-vite build');
    process.exit(1);
  }
}

// The lockfile's integrity (issue 29): here only the platform packages the registry mirror lacks may
// go without one (scripts/lock-platform-entries.mjs writes them so); a release build (--release, on
// a machine that reaches the full registry, after `node scripts/lock-platform-entries.mjs
// --fill-integrity`) accepts none without.
const release = process.argv.includes('--release');
const unchecked = entriesWithoutIntegrity(JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')));
const notPlatform = unchecked.filter((e) => !e.platform);
check(
  notPlatform.length === 0,
  `every lock entry but the unfetchable optional platform builds (opencode's, napi-rs clipboard's) has an integrity${notPlatform.length ? `: missing for ${notPlatform.map((e) => e.name).join(', ')}` : ''}`,
);
if (release) {
  check(
    unchecked.length === 0,
    `release: every lock entry has an integrity${unchecked.length ? ` (run node scripts/lock-platform-entries.mjs --fill-integrity first: ${unchecked.map((e) => e.name).join(', ')})` : ''}`,
  );
} else if (unchecked.length > 0) {
  console.log(
    `note   ${unchecked.length} platform lock entries have no integrity (not fetchable here; a release build fills them): ${unchecked.map((e) => e.name).join(', ')}`,
  );
}

const stub = mkdtempSync(join(tmpdir(), 'agentteam-stub-electron-'));
const keep = process.argv.includes('--keep');
try {
  makeStubElectron(stub);
  const unpacked = join(root, 'dist', 'linux-unpacked');
  rmSync(unpacked, { recursive: true, force: true });
  console.log(`=== electron-builder --linux --dir (stub Electron ${electronVersion} at ${stub})`);
  const code = run(
    bin('electron-builder'),
    ['--linux', '--dir', '--publish', 'never', `-c.electronDist=${stub}`, `-c.electronVersion=${electronVersion}`],
    {
      // Never reach for the network: no auto-detected CI publishing, no update checks.
      CSC_IDENTITY_AUTO_DISCOVERY: 'false',
      ELECTRON_BUILDER_ALLOW_UNRESOLVED_DEPENDENCIES: 'false',
    },
  );
  check(code === 0, `electron-builder --linux --dir exits 0 (exit ${code})`);

  const asarPath = join(unpacked, 'resources', 'app.asar');
  check(existsSync(asarPath), `produces ${asarPath.replace(root, '')}`);
  if (existsSync(asarPath)) {
    const { listPackage } = require('@electron/asar');
    const entries = new Set(listPackage(asarPath, { isPack: false }).map((p) => p.replaceAll('\\', '/')));
    for (const file of [
      '/package.json',
      '/out/main/index.js',
      '/out/main/cli.js',
      // issue 30: the demo agents' worker thread (runtime/demo/demo-thread.ts loads it beside the main bundle)
      '/out/main/demo-worker.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
    ]) {
      check(entries.has(file), `app.asar holds ${file}`);
    }
    check(
      [...entries].some((p) => /^\/out\/renderer\/assets\/.+\.js$/.test(p)),
      'app.asar holds the renderer bundle (out/renderer/assets/*.js)',
    );
    const sources = [...entries].filter(
      (p) => /^\/(main|preload|renderer|shared|test|bench|scripts|\.ci)\//.test(p) || /^\/out\/.*\.map$/.test(p),
    );
    check(
      sources.length === 0,
      `app.asar holds no sources, tests or source maps${sources.length ? `: ${sources.slice(0, 5).join(', ')}` : ''}`,
    );
    const dev = Object.keys(pkg.devDependencies ?? {}).filter(
      (name) => entries.has(`/node_modules/${name}`) || entries.has(`/node_modules/${name}/package.json`),
    );
    check(dev.length === 0, `app.asar holds no devDependency${dev.length ? `: ${dev.join(', ')}` : ''}`);
    // The main process is bundled (electron.vite.config.ts): the app must need no node_modules,
    // because electron-builder 26 drops nested dependency versions from app.asar.
    const modules = [...entries].filter((p) => p.startsWith('/node_modules/'));
    check(
      modules.length === 0,
      `app.asar holds no node_modules (the main process is bundled)${modules.length ? `: ${modules.slice(0, 5).join(', ')}` : ''}`,
    );
    const externals = externalSpecifiers(join(root, 'out', 'main')).filter(
      (name) =>
        name !== 'electron' && !builtinModules.includes(name.replace(/^node:/, '')) && !name.startsWith('node:'),
    );
    check(
      externals.length === 0,
      `out/main loads only electron and Node built-ins at run time${externals.length ? ` (also: ${externals.join(', ')})` : ''}`,
    );
  }

  const executable = join(unpacked, 'agentteam-desktop');
  const fuses = existsSync(executable) ? readFuses(executable) : null;
  check(fuses !== null, 'the packaged executable carries a fuse wire');
  if (fuses !== null) {
    const { load } = await import('./electron-builder-config.mjs');
    const wanted = (await load(root)).electronFuses ?? {};
    for (const [name, value] of Object.entries(wanted))
      check(fuses[name] === value, `fuse ${name} is ${value ? 'on' : 'off'} in the packaged executable`);
  }
} finally {
  if (!keep) rmSync(stub, { recursive: true, force: true });
}

console.log(
  failures.length === 0 ? 'package check: all checks hold' : `package check: ${failures.length} check(s) FAILED`,
);
process.exitCode = failures.length === 0 ? 0 : 1;
