/**
 * issue 25: `agentteam chain continue [--data-dir DIR] [--conversation ID] [--json]`, the
 * terminal's Continue of a chain of agents paused at its hop budget (as the status area's
 * Continue and Telegram's button). It calls the operator API `chains.continue` with the serve
 * token and the operator key (`AGENTTEAM_OPERATOR_KEY`): the chain gets another
 * `limits.agentHops` and the agents its held message addressed are woken. Without
 * `--conversation`, the newest paused chain anywhere. Exit codes as every command: 0 continued,
 * 1 no daemon / nothing paused, 2 bad input.
 */
import { failed, withDaemon } from './daemon-client.js';
import { commandOptions } from './cli-options.js';
import type { CliIo } from './serve-command.js';
import { escapeForTerminal } from './terminal-text.js';
import { operatorKeyFrom } from './approvals-cli.js';

export class ChainUsageError extends Error {}

export const CHAIN_USAGE =
  '  agentteam chain continue [--data-dir DIR] [--conversation ID] [--json]   another hop budget for agents paused at theirs';

export async function chainCommand(
  argv: readonly string[],
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb !== 'continue') throw new ChainUsageError(`unknown chain command "${verb ?? ''}" (expected "continue")`);
  const o = commandOptions(rest, { conversation: { type: 'string' }, json: { type: 'boolean' } }, ChainUsageError);
  const conversation = o.text('conversation');
  return withDaemon(
    o.dataDir,
    io,
    async (client) => {
      const r = await client.call('chains.continue', conversation === undefined ? {} : { target: conversation });
      if (!r.ok) return failed(io, r);
      const c = r.value;
      io.out(
        o.values.json === true
          ? JSON.stringify(c)
          : `continued the agents in ${escapeForTerminal(c.target)}: ${c.hops} of ${c.budget} hand-offs used`,
      );
      return 0;
    },
    operatorKeyFrom(env),
  );
}
