/**
 * issue 26: `agentteam changes [--data-dir DIR] --agent ID [--wake TOKEN] [--json]` — the files a
 * wake of the agent changed (`--wake`), or an isolated agent's changes since its base (without
 * it). `--json` prints one object whose `files` each have `path`, `status`, `added`, `removed`
 * (null for a binary file), `oldPath`, `binary` and `omitted` (why a patch is not inlined); the
 * patches themselves are for the review pane. Exit codes as every command: 0 answered, 1 no
 * daemon / unknown agent or wake / nothing to compare, 2 bad input.
 */
import type { ChangedFile } from '../../shared/api/contract.js';
import { failed, withDaemon } from './daemon-client.js';
import { commandOptions } from './cli-options.js';
import type { CliIo } from './serve-command.js';
import { escapeForTerminal } from './terminal-text.js';
import { resolveWakeId } from './wake-id-cli.js';

export class ChangesUsageError extends Error {}

export const CHANGES_USAGE =
  "  agentteam changes [--data-dir DIR] --agent ID [--wake ID] [--json]   the files a wake changed (--wake), or an isolated agent's changes since its base";

const fileJson = (f: ChangedFile) => ({
  path: f.path,
  status: f.status,
  added: f.added,
  removed: f.removed,
  oldPath: f.oldPath,
  binary: f.binary,
  omitted: f.omitted,
});

const fileLine = (f: ChangedFile): string => {
  const counts = f.binary ? 'binary' : `+${f.added ?? 0} -${f.removed ?? 0}`;
  const path = f.oldPath === null ? f.path : `${f.oldPath} → ${f.path}`;
  return `${f.status.padEnd(9)} ${counts.padEnd(12)} ${escapeForTerminal(path)}`;
};

export async function changesCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const o = commandOptions(
    argv,
    { agent: { type: 'string' }, wake: { type: 'string' }, json: { type: 'boolean' } },
    ChangesUsageError,
  );
  const agentId = o.text('agent', 'ID');
  const wake = o.text('wake');
  const values = o.values;
  return withDaemon(o.dataDir, io, async (client) => {
    if (typeof wake === 'string') {
      // issue 40 item 9: the short id the UI shows works too.
      const resolved = await resolveWakeId(client, io, wake);
      if (!resolved.ok) return resolved.code;
      const token = resolved.token;
      const r = await client.call('wakes.changes', { wakeToken: token });
      if (!r.ok) return failed(io, r);
      if (r.value.agentId !== agentId) {
        io.err(
          `agentteam: the wake ${escapeForTerminal(token)} is of agent "${escapeForTerminal(r.value.agentId)}", not "${escapeForTerminal(agentId)}".`,
        );
        return 1;
      }
      const c = r.value;
      if (values.json === true)
        io.out(
          JSON.stringify({ agentId, wakeToken: token, state: c.state, reason: c.reason, files: c.files.map(fileJson) }),
        );
      else {
        const note = c.reason === null ? '' : ` — ${escapeForTerminal(c.reason)}`;
        io.out(`${escapeForTerminal(token)}  ${c.state}  ${c.files.length} file(s)${note}`);
        for (const f of c.files) io.out(fileLine(f));
      }
      return 0;
    }
    const r = await client.call('agents.changes', { agentId });
    if (!r.ok) return failed(io, r);
    const c = r.value;
    if (values.json === true)
      io.out(JSON.stringify({ agentId, branch: c.branch, base: c.base, files: c.files.map(fileJson) }));
    else {
      io.out(`${escapeForTerminal(c.branch)} since ${escapeForTerminal(c.base)}  ${c.files.length} file(s)`);
      for (const f of c.files) io.out(fileLine(f));
    }
    return 0;
  });
}
