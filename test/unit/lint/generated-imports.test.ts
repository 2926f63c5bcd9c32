import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * STYLE.md habit 18 against the real lint config: the generated Codex protocol
 * (main/daemon/runtime/codex/generated/) is imported only by its gate, codex-protocol.ts, and the
 * gate's tests (scripts/lint/generated-imports.js); everything else, tests included, imports the gate.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function gateMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'agentteam/generated-imports').map((m) => m.message);
}

const TEST_TO_MAIN = '../../../../../../main/daemon/runtime/codex';

describe('generated code behind one module', () => {
  const forbidden: Array<[string, string]> = [
    [
      'main/daemon/runtime/codex/codex-driver.ts',
      "import type { ThreadResumeParams } from './generated/v2/ThreadResumeParams.js';",
    ],
    ['main/daemon/runtime/codex/codex-failure.ts', "import type { TurnError } from './generated/v2/index.js';"],
    [
      'main/daemon/runtime/codex/codex-approvals.ts',
      "import { type SandboxMode } from './generated/v2/SandboxMode.js';",
    ],
    [
      'main/daemon/runtime/claude-code/claude-stream-types.ts',
      "import type { ClientRequest } from '../codex/generated/index.js';",
    ],
    ['main/daemon/runtime/codex/x.ts', "const m = await import('./generated/ServerRequest.js');"],
    ['main/daemon/runtime/codex/x.ts', "export type { ServerRequest } from './generated/ServerRequest.js';"],
    ['main/daemon/runtime/codex/x.ts', "export * from './generated';"],
    ['main/daemon/runtime/codex/x.ts', "type T = import('./generated/v2/TurnStatus.js').TurnStatus;"],
    ['main/daemon/x.ts', "import type { ServerRequest } from './runtime/codex/generated/ServerRequest.js';"],
    [
      'test/unit/main/daemon/runtime/codex/codex-rpc-typed.test.ts',
      `import type { TurnStatus } from '${TEST_TO_MAIN}/generated/v2/TurnStatus.js';`,
    ],
    [
      'bench/x.bench.ts',
      "import type { ServerRequest } from '../main/daemon/runtime/codex/generated/ServerRequest.js';",
    ],
  ];
  it.each(forbidden)('%s: %s fails lint', async (file, code) => {
    const [message, ...more] = await gateMessages(file, code);
    expect(more).toEqual([]);
    expect(message).toContain('reaches main/daemon/runtime/codex/generated/');
    expect(message).toContain('import it through main/daemon/runtime/codex/codex-protocol.ts, its one gate');
    expect(message).toMatch(/STYLE\.md habit 18/);
  });

  const allowed: Array<[string, string]> = [
    [
      'main/daemon/runtime/codex/codex-protocol.ts',
      "import type { ClientRequest } from './generated/ClientRequest.js';",
    ],
    ['main/daemon/runtime/codex/codex-protocol.ts', "import type { TurnError } from './generated/v2/TurnError.js';"],
    [
      'main/daemon/runtime/codex/codex-driver.ts',
      "import { isItem, type ThreadResumeParams } from './codex-protocol.js';",
    ],
    [
      'test/unit/main/daemon/runtime/codex/codex-rpc-typed.test.ts',
      `import type { TurnStatus } from '${TEST_TO_MAIN}/codex-protocol.js';`,
    ],
    // the gate's own tests
    [
      'test/unit/main/daemon/runtime/codex/codex-protocol-drift.test.ts',
      `import type { ServerRequest } from '${TEST_TO_MAIN}/generated/ServerRequest.js';`,
    ],
    [
      'test/unit/main/daemon/runtime/codex/codex-protocol.test.ts',
      `import type { ServerRequest } from '${TEST_TO_MAIN}/generated/ServerRequest.js';`,
    ],
    // a folder merely named like it is not the generated one
    ['main/daemon/runtime/codex/x.ts', "import { x } from './generated-names.js';"],
  ];
  it.each(allowed)('%s: %s passes', async (file, code) => {
    expect(await gateMessages(file, code)).toEqual([]);
  });
});
