#!/usr/bin/env node
/**
 * `npm test`: every suite in order — typecheck, lint, build, the benchmarks once in quick mode,
 * unit/integration tests (Vitest),
 * browser tests (Playwright + Debian Chromium), the Electron suite — then one closing line
 * `N passed, N failed, N skipped` summing them all. A suite that cannot run here is reported
 * as "not run" with its reason and counted as skipped, never as passed.
 *
 * Usage: node scripts/test-all.mjs [--only step,step]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { electronBinary } from './electron-binary.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });

const onlyArg = process.argv.indexOf('--only');
const only = onlyArg >= 0 ? new Set(process.argv[onlyArg + 1].split(',')) : null;

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
/** Every failed test by name with the first line of its error: the summary is the last thing CI
 * shows, and a failure must be findable from it without the whole log. */
const failures = [];
/** Terminal colour codes (ESC [ … m), as Playwright's messages carry them. */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLine = (text) =>
  String(text ?? '')
    .replace(ANSI_COLOUR, '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '')
    ?.slice(0, 300) ?? '';

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (err) => {
      console.error(`could not start ${cmd}: ${err.message}`);
      resolve(1);
    });
  });
}

function record(step, passed, failed, skipped, note = '') {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  lines.push(`${step.padEnd(12)} ${passed} passed, ${failed} failed, ${skipped} skipped${note ? `  (${note})` : ''}`);
}

async function check(step, cmd, args) {
  if (only && !only.has(step)) return;
  console.log(`\n=== ${step}: ${[cmd.replace(root, ''), ...args].join(' ')}`);
  const code = await run(cmd, args);
  record(step, code === 0 ? 1 : 0, code === 0 ? 0 : 1, 0);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

async function vitest() {
  if (only && !only.has('vitest')) return;
  console.log('\n=== vitest: unit, integration and conformance tests');
  const out = join(results, 'vitest.json');
  rmSync(out, { force: true });
  const code = await run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  const report = readJson(out);
  if (report === null) return record('vitest', 0, 1, 0, `no report, exit ${code}`);
  for (const file of report.testResults ?? []) {
    const where = file.name.replace(root, '');
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed')
        failures.push(
          `vitest  ${where} › ${t.fullName} (${Math.round(t.duration ?? 0)} ms) — ${
            // Vitest's JSON has no message for a timeout, only this placeholder.
            firstLine(t.failureMessages?.[0]).replace('Error: STACK_TRACE_ERROR', 'timed out (no message; see the log)')
          }`,
        );
    }
    if ((file.assertionResults ?? []).length === 0 && file.status === 'failed') {
      failures.push(`vitest  ${where} — ${firstLine(file.message)}`);
    }
  }
  const failed = report.numFailedTests + (code !== 0 && report.numFailedTests === 0 ? 1 : 0);
  record('vitest', report.numPassedTests, failed, report.numPendingTests + report.numTodoTests);
}

async function playwright(step, config) {
  if (only && !only.has(step)) return;
  console.log(`\n=== ${step}: playwright test -c ${config}`);
  const out = join(results, `${step}.json`);
  rmSync(out, { force: true });
  const code = await run(bin('playwright'), ['test', '-c', config, '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  const report = readJson(out);
  if (report === null) return record(step, 0, 1, 0, `no report, exit ${code}`);
  const walk = (suite, prefix) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const last = t.results?.at(-1);
        failures.push(
          `${step}  ${spec.file}:${spec.line} › ${prefix}${spec.title} — ${firstLine(last?.error?.message)}`,
        );
      }
    }
    for (const child of suite.suites ?? [])
      walk(child, child.title && !child.title.endsWith('.ts') ? `${prefix}${child.title} › ` : prefix);
  };
  for (const suite of report.suites ?? []) walk(suite, '');
  const s = report.stats;
  const failed = s.unexpected + (code !== 0 && s.unexpected === 0 ? 1 : 0);
  record(step, s.expected + s.flaky, failed, s.skipped);
}

async function electronSuite() {
  if (only && !only.has('electron')) return;
  const binary = electronBinary(root);
  if (binary !== null) return playwright('electron', 'playwright.electron.config.ts');
  console.log('\n=== electron: not run: no Electron binary');
  // List the suite's tests so each is reported by name as not run (never passed, never missing).
  const out = join(results, 'electron-list.json');
  await run(bin('playwright'), ['test', '-c', 'playwright.electron.config.ts', '--list', '--reporter=json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  const titles = [];
  const walk = (suite, prefix) => {
    for (const spec of suite.specs ?? []) titles.push(`${prefix}${spec.title}`);
    for (const child of suite.suites ?? []) walk(child, `${prefix}${child.title} › `);
  };
  const report = readJson(out);
  for (const suite of report?.suites ?? []) walk(suite, '');
  for (const t of titles) console.log(`  not run: no Electron binary — ${t}`);
  if (titles.length === 0) return record('electron', 0, 1, 0, 'could not list the Electron suite');
  record('electron', 0, 0, titles.length, 'not run: no Electron binary');
}

await check('typecheck', bin('tsc'), ['-p', 'tsconfig.json']);
await check('typecheck-web', bin('tsc'), ['-p', 'tsconfig.web.json']);
await check('lint', bin('eslint'), ['.', '--max-warnings=0']);
await check('format', bin('prettier'), ['--check', '.', '--log-level', 'warn']);
await check('knip', bin('knip'), ['--no-progress']);
await check('build', bin('electron-vite'), ['build']);
// Every benchmark once with small sizes (issue 19), so none rots; the figures are not checked
// here (a shared CI machine is too noisy), only that each runs to its JSON line. One check.
await check('bench', bin('node'), ['--expose-gc', '--import', 'tsx', 'bench/run.ts', 'all', '--quick']);
await vitest();
await playwright('browser', 'playwright.config.ts');
await electronSuite();

console.log('\n=== summary');
if (failures.length > 0) {
  console.log('failed:');
  for (const f of failures) console.log(`  ${f}`);
}
for (const l of lines) console.log(l);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exitCode = totals.failed > 0 || !existsSync(join(root, 'out')) ? 1 : 0;
