/**
 * issue 39: the demo on the runtime registry — the scripted agent in its own thread (issue 30),
 * always ready (no CLI, no sign-in), and the two agents every first run seeds: the demo and the
 * helper it can ask (`/ask helper …`, issue 25).
 */
import type { McpToolNaming } from '../../prompt/tool-names.js';
import type { RuntimeDescriptor } from '../runtime-descriptor.js';
import { DemoThreadRuntime } from './demo-thread.js';

/** The demo agent calls our tools over the MCP SDK client by their bare names. */
const DEMO_TOOL_NAMING: McpToolNaming = { name: (tool) => tool, namespace: null };

export const DEMO_RUNTIME: RuntimeDescriptor<'demo'> = {
  kind: 'demo',
  launch: {
    adapter: ({ agent, deps, workspace }) =>
      new DemoThreadRuntime({
        agentId: agent.id,
        mcp: deps.mcp,
        host: deps.host,
        env: agent.env,
        workspace,
        ...(deps.log !== undefined ? { log: deps.log } : {}),
      }),
  },
  toolNaming: () => DEMO_TOOL_NAMING,
  // No CLI, no sign-in: only its name.
  words: () => ({ label: 'Demo', cli: '', login: '', key: '' }),
  probe: () =>
    Promise.resolve({ outcome: 'ready', cliVersion: null, detail: null, checkedAt: new Date().toISOString() }),
  // The demo runs in the daemon's own worker thread: there is no CLI to run elsewhere.
  overSsh: null,
  firstRun: {
    always: [
      { id: 'demo', name: 'Demo', runtime: 'demo' },
      { id: 'helper', name: 'Helper', runtime: 'demo' },
    ],
    offered: [],
  },
};
