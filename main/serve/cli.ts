/** `agentteam` CLI entry (DESIGN.md "CLI"). */
import { fileURLToPath } from 'node:url';
import { runCli } from './cli-main.js';
import { nodeAgentCli } from './node-agent-cli.js';

// issue 14: the `agentteam` an agent's shell runs is this Node and this very entry (node-agent-cli.ts).
const agentCli = nodeAgentCli(process.execPath, process.execArgv, fileURLToPath(import.meta.url));
const code = await runCli(process.argv.slice(2), { agentCli });
process.exitCode = code;
// A handle someone forgot to close (a runtime's pipe, a timer) must not keep a finished command
// alive; unref'd, so a clean run exits at once and flushes its output normally.
setTimeout(() => process.exit(code), 2000).unref();
