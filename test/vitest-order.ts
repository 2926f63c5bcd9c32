/**
 * issue 44: the order Vitest hands test files to its workers — longest first, so the workers
 * finish together instead of one running a long real-CLI file alone at the end (the longest
 * processing time rule). Measured on a full run (vitest.json, 2 workers, 1,175 s wall): 105 s
 * with no file running and 269 s with one, under Vitest's own order, which puts every file that
 * failed last time first, whatever its length.
 *
 * A file's expected time is its duration in Vitest's results cache (the last run that ran it);
 * a file the cache does not know yet (a fresh clone, a new file) that needs a real runtime CLI is
 * expected long and goes first, and any other unknown one short; ties go to the larger file.
 * The sequencer that applies it is in vitest.config.ts (it needs Vitest's node API; this module
 * stays light for its unit test).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A test file needs a real CLI when it starts a fake model server (only a real CLI talks to one),
 * uses a harness around a real runtime, or names a real runtime kind (vitest.quick.config.ts
 * leaves such files to the full run).
 */
const NEEDS_REAL_CLI =
  /fake-anthropic|fake-openai|runtime-harness|daemon-harness|ClaudeCodeAdapter|runtime: '(claude-code|codex|opencode|acp)'/;

export function needsRealCli(file: string): boolean {
  return NEEDS_REAL_CLI.test(readFileSync(file, 'utf8'));
}

/** What the order knows of one file: its last measured duration (ms), if any. */
export interface FileEstimate {
  readonly file: string;
  readonly durationMs: number | undefined;
  readonly realCli: boolean;
  readonly size: number;
}

/** Longest expected first: measured durations, with an unknown real-CLI file before all and an unknown other one after all. */
export function longestFirst<T extends FileEstimate>(files: readonly T[]): T[] {
  const expected = (f: FileEstimate): number => f.durationMs ?? (f.realCli ? Number.POSITIVE_INFINITY : 0);
  return [...files].sort((a, b) => expected(b) - expected(a) || b.size - a.size || (a.file < b.file ? -1 : 1));
}

/** The test files under `dir` (relative to `root`), as the configs' include lists name them. */
function testFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f))
    .map((f) => join(dir, f));
}

/**
 * A unit test file that replaces or re-imports modules (`vi.mock`, `vi.resetModules`, …) needs a
 * module graph of its own: in a worker shared with other files the module it imports to run (an
 * entry such as main/index.ts) may already be loaded, unmocked, and would not run again.
 */
const OWNS_MODULES = /\bvi\.(mock|doMock|unmock|doUnmock|resetModules|importActual|importMock)\(/;

/** The unit test files that need a module graph of their own (OWNS_MODULES). */
export function moduleOwningUnitFiles(root: string): string[] {
  return testFiles(root, 'test/unit').filter((f) => OWNS_MODULES.test(readFileSync(join(root, f), 'utf8')));
}

/** The integration test files that need a real runtime CLI (the conformance suites all do). */
export function realCliIntegrationFiles(root: string): string[] {
  return testFiles(root, 'test/integration').filter((f) => needsRealCli(join(root, f)));
}
