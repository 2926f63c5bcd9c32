/**
 * How `agentteam serve` runs its own CLI again (issue 14): the same Node binary and the same CLI
 * entry, for the `agentteam` shim the daemon puts on every runtime's PATH
 * (daemon/runtime/agent-cli-shim.ts). Only module-loading flags of this process are kept (a
 * source checkout runs under a TypeScript loader); `--inspect` and the like are not repeated.
 */
import { AGENT_ONLY_SWITCH, END_OF_SWITCHES } from '../daemon/mcp/agent-tools-command.js';
import type { AgentCliLauncher } from '../daemon/runtime/agent-cli-shim.js';

/** Node flags that decide how the entry is loaded: repeated so the shim loads it the same way. */
const LOADER_FLAGS = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--conditions',
  '-C',
]);

function loaderArgs(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] as string;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!LOADER_FLAGS.has(name)) continue;
    if (eq > 0) kept.push(arg);
    else if (execArgv[i + 1] !== undefined) kept.push(arg, execArgv[++i] as string);
  }
  return kept;
}

/**
 * `node [loader flags] <entry> --agentteam-cli --`: `entry` is the CLI's entry file (out/main/cli.js
 * when built); the switch makes that run `agentteam agent …` only (issue 29, serve/cli.ts).
 */
export function nodeAgentCli(execPath: string, execArgv: readonly string[], entry: string): AgentCliLauncher {
  return { command: execPath, args: [...loaderArgs(execArgv), entry, AGENT_ONLY_SWITCH, END_OF_SWITCHES] };
}
