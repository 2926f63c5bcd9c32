/**
 * issue 26: `agentteam merge [--data-dir DIR] --agent ID [--message TEXT] [--json]` and
 * `agentteam discard [--data-dir DIR] --agent ID --yes [--json]`, the terminal's Merge and Discard of
 * an isolated agent's worktree. Operator calls (`worktree.merge`, `worktree.discard`) with the serve
 * token and the operator key (`AGENTTEAM_OPERATOR_KEY`), as `agentteam stop`. Exit codes: 0 merged /
 * discarded, 1 no daemon / refused / conflict, 2 bad input.
 */
import { operatorKeyFrom } from './approvals-cli.js';
import { failed, withDaemon } from './daemon-client.js';
import { commandOptions } from './cli-options.js';
import type { CliIo } from './serve-command.js';
import { escapeForTerminal } from './terminal-text.js';

export class WorktreeUsageError extends Error {}

export const WORKTREE_USAGE = `  agentteam merge [--data-dir DIR] --agent ID [--message TEXT] [--json]   commits the agent's worktree and merges it into its base
  agentteam discard [--data-dir DIR] --agent ID --yes [--json]   resets the agent's worktree and branch to its base (its work is lost)`;

function options(argv: readonly string[], which: 'merge' | 'discard') {
  const o = commandOptions(
    argv,
    { agent: { type: 'string' }, json: { type: 'boolean' }, message: { type: 'string' }, yes: { type: 'boolean' } },
    WorktreeUsageError,
  );
  const values = o.values;
  const other = which === 'merge' ? 'yes' : 'message';
  if (values[other] !== undefined) throw new WorktreeUsageError(`--${other} is not an option of ${which}`);
  const agentId = o.text('agent', 'ID');
  if (which === 'merge') o.text('message');
  if (which === 'discard' && values.yes !== true)
    throw new WorktreeUsageError(
      "--yes is required: discarding loses the worktree's uncommitted changes and its branch's own commits",
    );
  return { dataDir: o.dataDir, agentId, values };
}

export async function mergeCommand(
  argv: readonly string[],
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const { dataDir, agentId, values } = options(argv, 'merge');
  const message = typeof values.message === 'string' ? values.message : undefined;
  return withDaemon(
    dataDir,
    io,
    async (client) => {
      const r = await client.call('worktree.merge', { agentId, ...(message === undefined ? {} : { message }) });
      if (!r.ok) return failed(io, r);
      const v = r.value;
      if (values.json === true) io.out(JSON.stringify({ agentId, ...v }));
      else if (v.kind === 'merged')
        io.out(`merged ${escapeForTerminal(agentId)}'s worktree (${v.how}, ${v.commit.slice(0, 12)})`);
      else io.err(`agentteam merge: ${escapeForTerminal(v.message)}`);
      return v.kind === 'merged' ? 0 : 1;
    },
    operatorKeyFrom(env),
  );
}

export async function discardCommand(
  argv: readonly string[],
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const { dataDir, agentId, values } = options(argv, 'discard');
  return withDaemon(
    dataDir,
    io,
    async (client) => {
      const r = await client.call('worktree.discard', { agentId, confirm: true });
      if (!r.ok) return failed(io, r);
      io.out(
        values.json === true
          ? JSON.stringify({ agentId, discarded: true, commit: r.value.commit })
          : `discarded ${escapeForTerminal(agentId)}'s worktree: it is back at its base (${r.value.commit.slice(0, 12)})`,
      );
      return 0;
    },
    operatorKeyFrom(env),
  );
}
