#!/usr/bin/env node
/**
 * Regenerates main/daemon/runtime/codex/generated/ from the installed Codex CLI:
 *
 *   node scripts/generate-codex-protocol.mjs            # rewrite the committed folder
 *   node scripts/generate-codex-protocol.mjs --out DIR  # write elsewhere (the drift test does this)
 *
 * `codex app-server generate-ts` (ts-rs output, ~800 files / 3 MB) runs offline with a throw-away
 * HOME and CODEX_HOME, then this script keeps only the files transitively imported by ROOTS (the
 * message unions and the responses codex-rpc-client.ts maps), adds `.js` to the relative imports
 * (the repo compiles with `moduleResolution: nodenext`) and writes an index.ts re-exporting them.
 * Every file says it is generated (ts-rs's own header; this script's on each index.ts), the folder
 * is `linguist-generated` in .gitattributes, and code reaches it only through codex-protocol.ts
 * (scripts/lint/generated-imports.js). The output depends only on the CLI version:
 * test/unit/main/daemon/runtime/codex/codex-protocol-drift.test.ts fails when the committed folder
 * differs from what the installed CLI generates.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_OUT = join(REPO, 'main/daemon/runtime/codex/generated');
const CODEX = join(REPO, 'node_modules/.bin/codex');

/** What codex-rpc-client.ts imports; everything else in the generated tree is pruned. */
const ROOTS = [
  'ClientRequest',
  'ClientNotification',
  'ServerNotification',
  'ServerRequest',
  'RequestId',
  // Responses to the client requests the Codex adapter sends.
  'InitializeResponse',
  'v2/ThreadStartResponse',
  'v2/ThreadResumeResponse',
  'v2/TurnStartResponse',
  'v2/TurnInterruptResponse',
  // Responses to the server requests the adapter answers (research/runtimes.md §3).
  'v2/CommandExecutionRequestApprovalResponse',
  'v2/FileChangeRequestApprovalResponse',
  'ExecCommandApprovalResponse',
  'ApplyPatchApprovalResponse',
  'v2/PermissionsRequestApprovalResponse',
  'v2/McpServerElicitationRequestResponse',
  'v2/ToolRequestUserInputResponse',
  'v2/DynamicToolCallResponse',
];

const IMPORT = /^import type \{[^}]*\} from "(\.{1,2}\/[^"]+)";$/gm;

function parseArgs(argv) {
  const out = argv.indexOf('--out');
  return { out: out >= 0 && argv[out + 1] ? resolve(argv[out + 1]) : DEFAULT_OUT };
}

/** Runs the CLI into a temp dir; returns that dir (caller removes `root`). */
function generateRaw(root) {
  const home = join(root, 'home');
  const codexHome = join(root, 'codex-home');
  const raw = join(root, 'raw');
  mkdirSync(home);
  mkdirSync(codexHome);
  const env = { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: codexHome, XDG_CONFIG_HOME: home };
  const res = spawnSync(CODEX, ['app-server', 'generate-ts', '--out', raw], { env, encoding: 'utf8' });
  if (res.status !== 0)
    throw new Error(`codex app-server generate-ts failed (${res.status ?? res.signal}): ${res.stderr || res.error}`);
  return raw;
}

/** The ROOTS and every file they import, transitively; name → text with `.js` specifiers. */
function prune(raw) {
  const kept = new Map();
  const todo = [...ROOTS];
  while (todo.length > 0) {
    const name = todo.pop();
    if (kept.has(name)) continue;
    const file = join(raw, `${name}.ts`);
    if (!existsSync(file)) throw new Error(`generated protocol has no ${name}.ts (did the codex version change?)`);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(IMPORT)) todo.push(posix.join(posix.dirname(name), spec));
    kept.set(
      name,
      text.replace(IMPORT, (line, spec) => line.replace(`"${spec}"`, `"${spec}.js"`)),
    );
  }
  return kept;
}

function version() {
  const res = spawnSync(CODEX, ['--version'], { encoding: 'utf8' });
  return res.stdout.trim();
}

/**
 * One index.ts per folder, as upstream lays them out: the root re-exports its own files and each
 * sub-folder as a namespace (`v2.ThreadItem`), so equal names in two folders never collide.
 */
function indexes(names, header) {
  const byDir = new Map();
  for (const name of names) {
    const dir = posix.dirname(name);
    if (!byDir.has(dir)) byDir.set(dir, []);
    byDir.get(dir).push(posix.basename(name));
  }
  const subdirs = [...byDir.keys()].filter((d) => d !== '.').sort();
  const files = new Map();
  for (const [dir, members] of byDir) {
    const lines = [header, '', ...members.map((m) => `export type { ${m} } from "./${m}.js";`)];
    if (dir === '.') lines.push(...subdirs.map((d) => `export type * as ${d} from "./${d}/index.js";`));
    files.set(posix.join(dir, 'index'), `${lines.join('\n')}\n`);
  }
  return files;
}

function write(out, kept) {
  rmSync(out, { recursive: true, force: true });
  const names = [...kept.keys()].sort();
  const header = [
    `// GENERATED by scripts/generate-codex-protocol.mjs from ${version()} (\`codex app-server generate-ts\`).`,
    '// Do not edit: run `node scripts/generate-codex-protocol.mjs`.',
  ].join('\n');
  const files = new Map([...names.map((n) => [n, kept.get(n)]), ...indexes(names, header)]);
  for (const [name, text] of files) {
    mkdirSync(dirname(join(out, name)), { recursive: true });
    writeFileSync(join(out, `${name}.ts`), text);
  }
  return files.size;
}

function main() {
  const { out } = parseArgs(process.argv.slice(2));
  const root = mkdtempSync(join(tmpdir(), 'codex-protocol-'));
  try {
    const count = write(out, prune(generateRaw(root)));
    console.log(`wrote ${count} files to ${out}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main();
