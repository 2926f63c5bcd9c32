/**
 * issue 29 "Turns end": `agentteam stop [--data-dir DIR] --agent ID [--json]`, the terminal's
 * Stop of an agent's working turn (as the working chip's Stop and Telegram's). It calls the
 * operator API `agents.stop` with the serve token and the operator key (`AGENTTEAM_OPERATOR_KEY`); the turn ends through the runtime's own
 * interrupt and its wakes end `failed` with `stopped_by_operator`. Exit codes as every command:
 * 0 stopped, 1 no daemon / not working / unknown agent, 2 bad input.
 */
import { failed, withDaemon } from './daemon-client.js';
import { commandOptions } from './cli-options.js';
import type { CliIo } from './serve-command.js';
import { escapeForTerminal } from './terminal-text.js';
import { operatorKeyFrom } from './approvals-cli.js';

export class StopUsageError extends Error {}

export const STOP_USAGE =
  '  agentteam stop [--data-dir DIR] --agent ID [--json]   stops the agent\'s working turn now (its wakes end "stopped by operator")';

export async function stopCommand(
  argv: readonly string[],
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const o = commandOptions(argv, { agent: { type: 'string' }, json: { type: 'boolean' } }, StopUsageError);
  const agentId = o.text('agent', 'ID');
  return withDaemon(
    o.dataDir,
    io,
    async (client) => {
      const r = await client.call('agents.stop', { agentId });
      if (!r.ok) return failed(io, r);
      io.out(
        o.values.json === true
          ? JSON.stringify({ agentId, stopped: true })
          : `stopped the working turn of ${escapeForTerminal(r.value.name)} (${escapeForTerminal(agentId)})`,
      );
      return 0;
    },
    operatorKeyFrom(env),
  );
}
