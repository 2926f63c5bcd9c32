/**
 * issue 14: the operator's approvals from a terminal (DESIGN.md "More CLI"):
 * `agentteam approvals [--data-dir DIR] [--json]`, `agentteam approve [--data-dir DIR] ID [--scope once|session|always]`,
 * `agentteam deny [--data-dir DIR] ID [--reason TEXT]`, `agentteam revoke [--data-dir DIR] --agent ID RULE`
 * (an "always" rule out of the agent's `allow` list, as the agent detail's Revoke does). They talk to the running daemon with the
 * serve token and, for approve / deny / revoke, the operator key `agentteam serve` printed at its
 * start, from `AGENTTEAM_OPERATOR_KEY` (issue 29: the token file alone, which an agent's process can
 * read, answers nothing); an agent has no MCP tool for it either.
 * Exit codes as every command: 0 ok, 1 no daemon / refused, 2 bad input.
 *
 * issue 29 "What you approve is what you see": every agent-supplied field printed in text mode
 * (tool, summary, detail, rule, agent name and id) goes through `escapeForTerminal`, so an escape
 * sequence that would hide part of a command shows as `\x1b…` instead; `approve` prints the full
 * command it allows (and for `--scope always` the exact rule it grants) before granting.
 */
import { parseArgs } from 'node:util';
import { OPERATOR_KEY_ENV } from '../../shared/api/ws-protocol.js';
import { APPROVAL_SCOPES, type ApprovalScope } from '../../shared/approvals.js';
import type { Approval } from '../../shared/api/contract.js';
import { failed, withDaemon } from './daemon-client.js';
import { defaultDataDir } from './default-data-dir.js';
import type { CliIo } from './serve-command.js';
import { escapeForTerminal } from './terminal-text.js';

export class ApprovalUsageError extends Error {}

/** One object per approval, exactly the fields DESIGN.md names for `approvals --json`. */
export function approvalJson(a: Approval) {
  return {
    id: a.id,
    agentId: a.agentId,
    runtime: a.runtime,
    wakeTokens: a.wakeTokens,
    tool: a.tool,
    summary: a.summary,
    status: a.status,
    createdAt: a.createdAt,
    answeredAt: a.answeredAt,
  };
}

function parse(
  argv: readonly string[],
  options: Record<string, { type: 'string' | 'boolean' }>,
  positionals: number,
  positional = 'approval ID',
) {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals > 0 });
  } catch (err) {
    throw new ApprovalUsageError(err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err));
  }
  // Like every command: --data-dir defaults to the app's data folder (DESIGN.md "More CLI").
  const given = parsed.values['data-dir'];
  if (typeof given === 'string' && given.trim() === '') throw new ApprovalUsageError('--data-dir must not be empty');
  const dataDir = typeof given === 'string' ? given : defaultDataDir();
  if (parsed.positionals.length !== positionals)
    throw new ApprovalUsageError(
      positionals === 1 ? `give exactly one ${positional}` : 'this command takes no arguments',
    );
  return { values: parsed.values, id: parsed.positionals[0] ?? '', dataDir };
}

export async function approvalsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, dataDir } = parse(argv, { 'data-dir': { type: 'string' }, json: { type: 'boolean' } }, 0);
  return withDaemon(dataDir, io, async (client) => {
    const r = await client.call('approvals.list', {});
    if (!r.ok) return failed(io, r);
    const rows = r.value.map(approvalJson);
    if (values.json === true) io.out(JSON.stringify(rows));
    else for (const a of r.value) approvalLines(a).forEach((line) => io.out(line));
    return 0;
  });
}

/** The most pending approvals one `approvals.list` returns (the contract's cap). */
const LIST_CAP = 1000;

/** Agent-supplied text on a terminal: each line escaped, never interpreted. */
function shown(text: string): string[] {
  return text.split(/\r?\n/).map(escapeForTerminal);
}

/**
 * An approval in text mode: a heading line, then the full command or diff (`detail`), one
 * terminal line per line of it, and the rule an "always" would grant.
 */
function approvalLines(a: Approval): string[] {
  const who = `${escapeForTerminal(a.agentName)} (${escapeForTerminal(a.agentId)})`;
  const head = `${escapeForTerminal(a.id)}  ${who}  ${a.status}  ${escapeForTerminal(a.tool)}: ${escapeForTerminal(a.summary)}`;
  // issue 29: a request with no exact rule can only be allowed once.
  const always = a.rule === null ? '(none: only --scope once)' : escapeForTerminal(a.rule);
  return [head, ...shown(a.detail).map((line) => `    ${line}`), `  always: ${always}`];
}

/** What `approve` is about to allow, printed before it is granted. */
function allowPreview(a: Approval, scope: ApprovalScope | undefined): string[] {
  return [
    `Allowing ${escapeForTerminal(a.agentName)} (${escapeForTerminal(a.agentId)}) ${escapeForTerminal(a.tool)}, exactly:`,
    ...shown(a.detail).map((line) => `    ${line}`),
    ...(scope === 'always' && a.rule !== null ? [`and granting always the rule: ${escapeForTerminal(a.rule)}`] : []),
  ];
}

/** issue 29: the operator key the operator exported from what `agentteam serve` printed (never a file). */
export function operatorKeyFrom(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const key = env[OPERATOR_KEY_ENV]?.trim();
  return key === undefined || key === '' ? undefined : key;
}

export async function answerCommand(
  decision: 'allow' | 'deny',
  argv: readonly string[],
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const options: Record<string, { type: 'string' | 'boolean' }> = {
    'data-dir': { type: 'string' },
    json: { type: 'boolean' },
    ...(decision === 'allow' ? { scope: { type: 'string' } } : { reason: { type: 'string' } }),
  };
  const { values, id, dataDir } = parse(argv, options, 1);
  const scope = values.scope;
  if (scope !== undefined && !(APPROVAL_SCOPES as readonly unknown[]).includes(scope))
    throw new ApprovalUsageError(`--scope must be one of ${APPROVAL_SCOPES.join(', ')}`);
  const reason = typeof values.reason === 'string' ? values.reason : undefined;
  return withDaemon(
    dataDir,
    io,
    async (client) => {
      if (decision === 'allow' && values.json !== true) {
        const pending = await client.call('approvals.list', { status: 'pending', limit: LIST_CAP });
        if (!pending.ok) return failed(io, pending);
        const a = pending.value.find((p) => p.id === id);
        if (a !== undefined) allowPreview(a, scope as ApprovalScope | undefined).forEach((line) => io.out(line));
        else if (pending.value.length >= LIST_CAP) {
          // Never allow what was not shown: it could not be looked up among this many.
          io.err(
            `agentteam approve: ${escapeForTerminal(id)} is not among the first ${LIST_CAP} pending approvals; nothing was allowed.`,
          );
          return 1;
        }
        // Not pending at all: the daemon's answer below says why (unknown, or already answered).
      }
      const r = await client.call('approvals.answer', {
        id,
        decision,
        ...(scope !== undefined ? { scope: scope as ApprovalScope } : {}),
        ...(reason !== undefined ? { reason } : {}),
      });
      if (!r.ok) return failed(io, r);
      io.out(
        values.json === true
          ? JSON.stringify(approvalJson(r.value))
          : `${escapeForTerminal(r.value.id)} ${r.value.status}${r.value.scope === 'always' && decision === 'allow' ? ` (always: ${escapeForTerminal(r.value.rule ?? '')})` : ''}`,
      );
      return 0;
    },
    operatorKeyFrom(env),
  );
}

/** `agentteam revoke --agent ID RULE`: removes exactly that "always" rule (the agent detail's Revoke). */
export async function revokeCommand(
  argv: readonly string[],
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const {
    values,
    id: rule,
    dataDir,
  } = parse(
    argv,
    { 'data-dir': { type: 'string' }, agent: { type: 'string' }, json: { type: 'boolean' } },
    1,
    'rule, e.g. "Bash(npm test)"',
  );
  const agentId = values.agent;
  if (typeof agentId !== 'string' || agentId.trim() === '') throw new ApprovalUsageError('--agent ID is required');
  return withDaemon(
    dataDir,
    io,
    async (client) => {
      const r = await client.call('agents.revokeRule', { agentId, rule });
      if (!r.ok) return failed(io, r);
      const allow = r.value.allow ?? [];
      io.out(
        values.json === true
          ? JSON.stringify({ agentId, allow })
          : `revoked ${escapeForTerminal(rule)} (${escapeForTerminal(agentId)})`,
      );
      return 0;
    },
    operatorKeyFrom(env),
  );
}
