import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentConfigSchema } from '../../../../../shared/config.js';
import { ClaudeDriver } from '../../../../../main/daemon/runtime/claude-code/claude-driver.js';
import { CodexDriver } from '../../../../../main/daemon/runtime/codex/codex-driver.js';
import { DemoThreadRuntime } from '../../../../../main/daemon/runtime/demo/demo-thread.js';
import { OpencodeDriver } from '../../../../../main/daemon/runtime/opencode/opencode-driver.js';
import { createRuntimeAdapter } from '../../../../../main/daemon/runtime/runtime-factory.js';
import { resolveRuntimeCommand, runtimeDirOf } from '../../../../../main/daemon/runtime/runtime-home.js';
import { RuntimeSkeleton } from '../../../../../main/daemon/runtime/runtime-skeleton.js';
import { workspaceOf } from '../../../../../main/daemon/runtime/workspace.js';

const deps = {
  mcp: { url: 'http://127.0.0.1:1/mcp', token: 't', headers: { Authorization: 'Bearer t' } },
  host: { onTurnBoundary: async () => null },
  // issue 14: the workspace (cwd "." of the data dir) must exist before a runtime is built.
  // Its own data dir: building a runtime makes the agent's default workspace under it.
  dataDir: mkdtempSync(join(tmpdir(), 'agentteam-factory-')),
  projectRoot: '/app',
  threadContractFingerprint: 'fp',
};

function build(runtime: string) {
  const made = createRuntimeAdapter(AgentConfigSchema.parse({ id: runtime, name: runtime, runtime }), deps);
  if (!made.ok) throw new Error(made.message);
  return made.adapter;
}

describe('createRuntimeAdapter', () => {
  it('refuses a workspace that does not exist, naming the agent and the path (issue 14)', () => {
    const made = createRuntimeAdapter(
      AgentConfigSchema.parse({ id: 'claude', name: 'C', runtime: 'claude-code', cwd: '/no/such/project' }),
      deps,
    );
    expect(made).toMatchObject({ ok: false, code: 'workspace_missing' });
    expect(made.ok ? '' : made.message).toMatch(/workspace of agent "claude" does not exist: \/no\/such\/project/);
  });

  it('the demo has a workspace too: a configured cwd is checked like any; the default is its own folder (issue 14)', () => {
    const made = createRuntimeAdapter(
      AgentConfigSchema.parse({ id: 'demo', name: 'D', runtime: 'demo', cwd: '/no/such/project' }),
      deps,
    );
    expect(made).toMatchObject({ ok: false, code: 'workspace_missing' });
    expect(made.ok ? '' : made.message).toMatch(/workspace of agent "demo" does not exist: \/no\/such\/project/);
    expect(workspaceOf('.', '/data', 'demo')).toBe('/data/workspaces/demo');
    expect(workspaceOf('proj', '/data', 'demo')).toBe('/data/proj');
    expect(workspaceOf('/abs/proj', '/data', 'demo')).toBe('/abs/proj');
  });

  it('builds every CLI runtime as the one skeleton around its driver, without starting it', () => {
    const claude = build('claude-code');
    expect(claude).toBeInstanceOf(RuntimeSkeleton);
    expect((claude as RuntimeSkeleton).driver).toBeInstanceOf(ClaudeDriver);
    expect((claude as RuntimeSkeleton).driver.finalCheck).toBe('in_turn');
    const codex = build('codex');
    expect((codex as RuntimeSkeleton).driver).toBeInstanceOf(CodexDriver);
    expect(codex.runtime).toBe('codex');
    const opencode = build('opencode');
    expect((opencode as RuntimeSkeleton).driver).toBeInstanceOf(OpencodeDriver);
    expect((opencode as RuntimeSkeleton).driver.finalCheck).toBe('next_turn');
    expect((opencode as RuntimeSkeleton).generation).toBe(0);
  });

  it('builds the demo (its agent in the demo thread, issue 30), and resolves runtime dirs and commands', () => {
    expect(build('demo')).toBeInstanceOf(DemoThreadRuntime);
    expect(runtimeDirOf('/data', 'claude')).toBe('/data/runtimes/claude');
    expect(resolveRuntimeCommand('/opt/codex', 'codex', '/nowhere')).toBe('/opt/codex');
    expect(resolveRuntimeCommand(null, 'opencode', '/nowhere')).toBe('opencode');
  });
});
