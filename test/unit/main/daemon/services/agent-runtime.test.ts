import { describe, expect, it } from 'vitest';
import { AgentConfigSchema } from '../../../../../shared/config.js';
import { compileThreadContract } from '../../../../../main/daemon/prompt/thread-contract.js';
import { sendSurfaceFor } from '../../../../../main/daemon/prompt/tool-names.js';
import type { TurnBoundaryHost } from '../../../../../main/daemon/runtime/runtime-adapter.js';
import type { RuntimeDeps } from '../../../../../main/daemon/runtime/runtime-factory.js';
import { agentRuntimeBuilder } from '../../../../../main/daemon/services/agent-runtime.js';
import { namingFor } from '../../../../fixtures/prompt-agents.js';

describe('agentRuntimeBuilder', () => {
  it("builds around the session's host with a fresh MCP token each time and the agent's compiled thread contract", () => {
    const built: RuntimeDeps[] = [];
    let tokens = 0;
    const build = agentRuntimeBuilder({
      createRuntime: (_agent, deps) => {
        built.push(deps);
        return { ok: false, code: 'test', message: 'not started in this test' };
      },
      issueToken: (agentId) => {
        tokens += 1;
        return { url: 'http://127.0.0.1:1/mcp', token: `${agentId}-${tokens}`, headers: {} };
      },
      shared: { dataDir: '/data', projectRoot: '/project' },
    });
    const agent = AgentConfigSchema.parse({ id: 'ada', name: 'Ada', runtime: 'codex', agentTools: 'cli' });
    const host: TurnBoundaryHost = { onTurnBoundary: () => Promise.resolve(null) };
    build(agent, host);
    build(agent, host);
    const contract = compileThreadContract(agent, sendSurfaceFor(namingFor('codex'), 'cli'));
    expect(built.map((d) => d.mcp.token)).toEqual(['ada-1', 'ada-2']);
    expect(built[0]).toMatchObject({
      host,
      dataDir: '/data',
      projectRoot: '/project',
      threadContractFingerprint: contract.fingerprint,
      threadContractText: contract.text,
    });
  });
});
