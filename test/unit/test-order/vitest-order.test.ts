/** issue 44: the test files' order — longest expected first (test/vitest-order.ts). */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { longestFirst, moduleOwningUnitFiles, needsRealCli, realCliIntegrationFiles } from '../../vitest-order.js';

const file = (name: string, durationMs: number | undefined, realCli = false, size = 100) => ({
  file: name,
  durationMs,
  realCli,
  size,
});

describe('longestFirst', () => {
  it('orders measured files by their last duration, longest first', () => {
    const order = longestFirst([file('a', 1_000), file('b', 120_000), file('c', 30_000)]).map((f) => f.file);
    expect(order).toEqual(['b', 'c', 'a']);
  });

  it('puts an unmeasured real-CLI file before every measured one, and an unmeasured other one after them', () => {
    const order = longestFirst([
      file('unit-new', undefined),
      file('measured', 5_000),
      file('cli-new', undefined, true),
      file('measured-long', 300_000, true),
    ]).map((f) => f.file);
    expect(order).toEqual(['cli-new', 'measured-long', 'measured', 'unit-new']);
  });

  it('a fresh clone (nothing measured): real-CLI files first, the larger first within each kind', () => {
    const order = longestFirst([
      file('small-unit', undefined, false, 10),
      file('small-cli', undefined, true, 10),
      file('big-unit', undefined, false, 900),
      file('big-cli', undefined, true, 900),
    ]).map((f) => f.file);
    expect(order).toEqual(['big-cli', 'small-cli', 'big-unit', 'small-unit']);
  });

  it('a failed file is no reason to go first: only the expected time counts', () => {
    // Vitest's own order runs last run's failures first, whatever their length.
    const order = longestFirst([file('short-failed', 200), file('long', 90_000)]).map((f) => f.file);
    expect(order).toEqual(['long', 'short-failed']);
  });
});

describe('needsRealCli', () => {
  it('knows a conformance file from a unit file by what it starts', () => {
    const at = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
    expect(needsRealCli(at('conformance/runtimes/acp-conformance.test.ts'))).toBe(true);
    expect(needsRealCli(at('conformance/daemon/teams.test.ts'))).toBe(true);
    expect(needsRealCli(at('unit/test-order/vitest-order.test.ts'))).toBe(false);
  });

  it('lists the integration files that start a real CLI, and only those (the quick project leaves them out)', () => {
    const files = realCliIntegrationFiles(fileURLToPath(new URL('../../../', import.meta.url)));
    expect(files).toContain('test/integration/runtime/usage-pause.test.ts');
    expect(files).toContain('test/integration/daemon/telegram-approvals.test.ts');
    expect(files).not.toContain('test/integration/daemon/daemon-demo.test.ts');
    expect(files.every((f) => f.startsWith('test/integration/') && f.endsWith('.test.ts'))).toBe(true);
  });

  it('lists the unit files that mock or re-import modules (they keep a worker of their own), and only those', () => {
    const files = moduleOwningUnitFiles(fileURLToPath(new URL('../../../', import.meta.url)));
    // Both import main/index.ts to run it, each under its own mocks: in a shared worker the second import ran nothing.
    expect(files).toContain('test/unit/main/index.test.ts');
    expect(files).toContain('test/unit/main/index-cli.test.ts');
    expect(files).not.toContain('test/unit/test-order/vitest-order.test.ts');
    expect(files.every((f) => f.startsWith('test/unit/'))).toBe(true);
  });
});
