import { describe, expect, it } from 'vitest';
import { AgentConfigSchema } from '../../../../../shared/config.js';
import { ClaudeCodeAdapter } from '../../../../../main/daemon/runtime/claude-code/claude-code-adapter.js';
import { DemoRuntime } from '../../../../../main/daemon/runtime/demo/demo-runtime.js';
import { createRuntimeAdapter, runtimeDirOf } from '../../../../../main/daemon/runtime/runtime-factory.js';

const deps = {
  mcp: { url: 'http://127.0.0.1:1/mcp', token: 't', headers: { Authorization: 'Bearer t' } },
  host: { onTurnBoundary: async () => null },
  dataDir: '/data',
  projectRoot: '/app',
  threadContractFingerprint: 'fp',
};

describe('createRuntimeAdapter', () => {
  it('builds the adapter the config names, without starting it', () => {
    const claude = createRuntimeAdapter(AgentConfigSchema.parse({ id: 'claude', name: 'Claude', runtime: 'claude-code' }), deps);
    expect(claude.ok && claude.adapter).toBeInstanceOf(ClaudeCodeAdapter);
    const demo = createRuntimeAdapter(AgentConfigSchema.parse({ id: 'demo', name: 'Demo', runtime: 'demo' }), deps);
    expect(demo.ok && demo.adapter).toBeInstanceOf(DemoRuntime);
    expect(runtimeDirOf('/data', 'claude')).toBe('/data/runtimes/claude');
  });

  it('refuses runtimes this build cannot run with a stable code and what to do', () => {
    const codex = createRuntimeAdapter(AgentConfigSchema.parse({ id: 'codex', name: 'Codex', runtime: 'codex' }), deps);
    expect(codex).toMatchObject({ ok: false, code: 'runtime_unsupported' });
    expect(!codex.ok && codex.message).toMatch(/use "claude-code" or "demo"/);
  });
});
