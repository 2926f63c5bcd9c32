/** issue 14: `agentteam serve` runs its own CLI again for the agents' shim: same Node, same entry, same loader. */
import { describe, expect, it } from 'vitest';
import { nodeAgentCli } from '../../../../main/serve/node-agent-cli.js';

describe('nodeAgentCli', () => {
  it('the built CLI: Node and the entry', () => {
    expect(nodeAgentCli('/usr/bin/node', [], '/app/out/main/cli.js')).toEqual({
      command: '/usr/bin/node',
      args: ['/app/out/main/cli.js'],
    });
  });

  it('keeps the flags that load the entry, drops the rest', () => {
    expect(
      nodeAgentCli(
        '/n',
        ['--inspect=9229', '--import', '/t/loader.mjs', '--max-old-space-size=4096', '--require=/r.cjs', '-C', 'dev'],
        '/src/cli.ts',
      ).args,
    ).toEqual(['--import', '/t/loader.mjs', '--require=/r.cjs', '-C', 'dev', '/src/cli.ts']);
  });
});
