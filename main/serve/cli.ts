/** `agentteam` CLI entry (DESIGN.md "CLI"). */
import { runCli } from './cli-main.js';

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
// A handle someone forgot to close (a runtime's pipe, a timer) must not keep a finished command
// alive; unref'd, so a clean run exits at once and flushes its output normally.
setTimeout(() => process.exit(code), 2000).unref();
