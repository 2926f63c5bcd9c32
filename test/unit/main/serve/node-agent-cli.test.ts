/** issue 14: `agentteam serve` runs its own CLI again for the agents' shim: same Node, same entry, same loader. */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installAgentCliShim } from '../../../../main/daemon/runtime/agent-cli-shim.js';
import { nodeAgentCli } from '../../../../main/serve/node-agent-cli.js';
import { makeTempDir } from '../../../fixtures/temp-dir.js';

describe('nodeAgentCli', () => {
  it('the built CLI: Node and the entry', () => {
    expect(nodeAgentCli('/usr/bin/node', [], '/app/out/main/cli.js')).toEqual({
      command: '/usr/bin/node',
      // issue 29: the switch makes that run `agentteam agent …` only.
      args: ['/app/out/main/cli.js', '--agentteam-cli', '--'],
    });
  });

  it('keeps the flags that load the entry, drops the rest', () => {
    expect(
      nodeAgentCli(
        '/n',
        ['--inspect=9229', '--import', '/t/loader.mjs', '--max-old-space-size=4096', '--require=/r.cjs', '-C', 'dev'],
        '/src/cli.ts',
      ).args,
    ).toEqual(['--import', '/t/loader.mjs', '--require=/r.cjs', '-C', 'dev', '/src/cli.ts', '--agentteam-cli', '--']);
  });
});

describe("the agents' shim under serve (issue 29)", () => {
  const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
  const run = (shim: string, args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(shim, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });

  it('runs `agentteam agent …` only: the operator commands are a usage error naming where they are', async () => {
    const dir = makeTempDir('agentteam-agent-only-');
    try {
      // The shim exactly as `agentteam serve` writes it for this checkout's CLI entry (under tsx).
      const launcher = nodeAgentCli(process.execPath, ['--import', 'tsx'], join(ROOT, 'main', 'serve', 'cli.ts'));
      const shim = join(installAgentCliShim(dir.path, launcher), 'agentteam');
      for (const args of [
        ['approve', 'ap_1', '--scope', 'always', '--data-dir', dir.path],
        ['deny', 'ap_1', '--data-dir', dir.path],
        ['revoke', '--agent', 'claude', 'Bash(ls)', '--data-dir', dir.path],
        ['serve', '--data-dir', dir.path],
      ]) {
        const r = await run(shim, args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toContain(`runs only "agentteam agent send|react"; "${args[0]}" is the operator's`);
      }
      // The agent command itself is reached (outside a runtime it names what is missing).
      const send = await run(shim, ['agent', 'send', '--target', '#general', '--content', 'hi']);
      expect(send.code).toBe(2);
      expect(send.stderr).toMatch(/AGENTTEAM_MCP_URL and AGENTTEAM_AGENT_TOKEN are not set/);
    } finally {
      dir.remove();
    }
  }, 60_000);
});
