/**
 * issue 40 item 9: a wake named on the command line by the short id the UI shows (or any prefix of
 * at least 4 characters), resolved to its token among the daemon's newest wakes (shared/wake-id.ts).
 * A prefix that names several wakes is refused, listing them, never guessed.
 */
import { MIN_WAKE_PREFIX, matchWakeId } from '../../shared/wake-id.js';
import type { DaemonClient } from './daemon-client.js';
import { failed } from './daemon-client.js';
import type { CliIo } from './serve-command.js';
import { escapeForTerminal } from './terminal-text.js';

/** How many of the newest wakes a short id is looked for in (the API's largest page). */
const SEARCHED = 1000;
const LISTED = 5;

/** The token `id` names, or the exit code after one line saying why it names none (1) or is unclear (2). */
export async function resolveWakeId(
  client: DaemonClient,
  io: CliIo,
  id: string,
): Promise<{ ok: true; token: string } | { ok: false; code: number }> {
  const r = await client.call('wakes.list', { limit: SEARCHED });
  if (!r.ok) return { ok: false, code: failed(io, r) };
  const match = matchWakeId(
    id,
    r.value.map((w) => w.wakeToken),
  );
  const shown = escapeForTerminal(id);
  switch (match.kind) {
    case 'one':
      return { ok: true, token: match.token };
    case 'too_short':
      io.err(`agentteam: the wake id "${shown}" is too short; give at least ${MIN_WAKE_PREFIX} characters of it.`);
      return { ok: false, code: 2 };
    case 'ambiguous': {
      const more = match.tokens.length > LISTED ? `, … (${match.tokens.length} in all)` : '';
      io.err(
        `agentteam: the wake id "${shown}" matches ${match.tokens.length} wakes (${match.tokens.slice(0, LISTED).join(', ')}${more}); give more of it.`,
      );
      return { ok: false, code: 2 };
    }
    case 'none':
      io.err(`agentteam: no wake "${shown}" among the newest ${SEARCHED}; "agentteam wakes" lists them.`);
      return { ok: false, code: 1 };
  }
}
