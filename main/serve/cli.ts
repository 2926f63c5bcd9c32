/** `agentteam` CLI entry (DESIGN.md "CLI"). */
import { fileURLToPath } from 'node:url';
import { runCli } from './cli-main.js';
import { nodeAgentCli } from './node-agent-cli.js';
import { agentOnlyArgs, agentOnlyCommand } from '../daemon/mcp/agent-tools-command.js';

// issue 14: the `agentteam` an agent's shell runs is this Node and this very entry (node-agent-cli.ts).
const agentCli = nodeAgentCli(process.execPath, process.execArgv, fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
// issue 40 item 9: `agentteam wakes | head` — the reader left early. A command stops quietly, as a
// Unix filter does (no EPIPE stack trace); `serve` keeps serving and just stops writing there.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    if (argv[0] !== 'serve') process.exit(process.exitCode ?? 0);
  });
// issue 29: run through the agents' shim (`--agentteam-cli --`), this is `agentteam agent …` only.
const agentOnly = agentOnlyArgs(argv);
const io = { out: (l: string) => process.stdout.write(`${l}\n`), err: (l: string) => process.stderr.write(`${l}\n`) };
const code =
  agentOnly === null
    ? await runCli(argv, { agentCli })
    : await agentOnlyCommand(agentOnly, { io }, "the agentteam CLI in the operator's own terminal");
process.exitCode = code;
// A handle someone forgot to close (a runtime's pipe, a timer) must not keep a finished command
// alive; unref'd, so a clean run exits at once and flushes its output normally.
setTimeout(() => process.exit(code), 2000).unref();
