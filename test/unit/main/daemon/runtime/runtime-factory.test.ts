import { CodexRuntime } from '../../../../../main/daemon/runtime/codex/codex-runtime.js';
import { OpencodeRuntime } from '../../../../../main/daemon/runtime/opencode/opencode-runtime.js';
import { TurnRuntimeAdapter } from '../../../../../main/daemon/runtime/turn-runtime-adapter.js';
import { describe, expect, it } from 'vitest';
import { AgentConfigSchema } from '../../../../../shared/config.js';
import { ClaudeCodeAdapter } from '../../../../../main/daemon/runtime/claude-code/claude-code-adapter.js';
import { DemoRuntime } from '../../../../../main/daemon/runtime/demo/demo-runtime.js';
import {
  createRuntimeAdapter,
  resolveRuntimeCommand,
  runtimeDirOf,
} from '../../../../../main/daemon/runtime/runtime-factory.js';

const deps = {
  mcp: { url: 'http://127.0.0.1:1/mcp', token: 't', headers: { Authorization: 'Bearer t' } },
  host: { onTurnBoundary: async () => null },
  dataDir: '/data',
  projectRoot: '/app',
  threadContractFingerprint: 'fp',
};

describe('createRuntimeAdapter', () => {
  it('builds the adapter the config names, without starting it', () => {
    const claude = createRuntimeAdapter(
      AgentConfigSchema.parse({ id: 'claude', name: 'Claude', runtime: 'claude-code' }),
      deps,
    );
    expect(claude.ok && claude.adapter).toBeInstanceOf(ClaudeCodeAdapter);
    const demo = createRuntimeAdapter(AgentConfigSchema.parse({ id: 'demo', name: 'Demo', runtime: 'demo' }), deps);
    expect(demo.ok && demo.adapter).toBeInstanceOf(DemoRuntime);
    expect(runtimeDirOf('/data', 'claude')).toBe('/data/runtimes/claude');
  });

  it('builds Codex and OpenCode as turn runtimes behind the same adapter interface', () => {
    const codex = createRuntimeAdapter(AgentConfigSchema.parse({ id: 'codex', name: 'Codex', runtime: 'codex' }), deps);
    expect(codex.ok && codex.adapter).toBeInstanceOf(TurnRuntimeAdapter);
    expect(codex.ok && (codex.adapter as TurnRuntimeAdapter).inner).toBeInstanceOf(CodexRuntime);
    expect(codex.ok && codex.adapter.runtime).toBe('codex');
    const opencode = createRuntimeAdapter(
      AgentConfigSchema.parse({ id: 'oc', name: 'OpenCode', runtime: 'opencode' }),
      deps,
    );
    expect(opencode.ok && (opencode.adapter as TurnRuntimeAdapter).inner).toBeInstanceOf(OpencodeRuntime);
    expect(resolveRuntimeCommand('/opt/codex', 'codex', '/nowhere')).toBe('/opt/codex');
    expect(resolveRuntimeCommand(null, 'opencode', '/nowhere')).toBe('opencode');
  });
});
