/**
 * An agent's permission policy on OpenCode's own mechanism (issue 14; research/runtimes.md
 * appendix; the server's `GET /doc`, opencode 1.18): the `permission` key of its config
 * (`edit` / `bash` / `webfetch` / `external_directory`: `ask | allow | deny`), the
 * `permission.asked` event on `/event` (`{id: "per…", sessionID, permission, patterns, metadata,
 * always, tool}`), and `POST /permission/{id}/reply {reply: "once" | "reject", message?}`.
 * A reject always carries a message: without one OpenCode stops the agent loop and the model
 * could not tell anyone (research/runtimes.md).
 *
 * | policy      | edit  | bash  | webfetch | external_directory |
 * |-------------|-------|-------|----------|--------------------|
 * | `read-only` | deny  | deny  | deny     | deny               |
 * | `ask`       | ask   | ask   | ask      | ask                |
 * | `auto-edit` | allow | ask   | ask      | ask                |
 * | `full`      | allow | allow | allow    | allow              |
 * (issue 41: an allowed or asked `edit` is denied under `.git` — `edit` below.)
 * (`deny` removes the tool from what the model is offered: the CLI itself refuses.)
 */
import { unifiedDiffCounts } from '../../../../shared/line-diff.js';
import type { PermissionPolicy } from '../../../../shared/config.js';
import { approvalRule } from '../../../../shared/approvals.js';
import type { ApprovalAnswer, ApprovalAsk } from '../approval-port.js';
import type { OpencodePermissionAsked } from './opencode-events.js';

type Action = 'ask' | 'allow' | 'deny';

/**
 * issue 29: `external_directory` as OpenCode's pattern object — the policy's action for any folder
 * outside the workspace, and `deny` for each of `denied` (the data dir, under every policy). OpenCode
 * asks it with the pattern `<folder of the path>/*` and the longest matching key wins (its `*`
 * spans `/`), so `<data dir>/*` covers everything below the data dir; the agent's own workspace
 * is its project, never external. The CLI's own state there is written by the CLI, not a tool.
 */
function externalDirectory(action: Action, denied: readonly string[]): Action | Record<string, Action> {
  if (denied.length === 0) return action;
  return { '*': action, ...Object.fromEntries(denied.map((d) => [`${d.replace(/\/+$/, '')}/*`, 'deny' as const])) };
}

/**
 * issue 41: `edit` as OpenCode's pattern object — the policy's action, and `deny` for git metadata
 * (a `.git` folder or a linked worktree's `.git` file, in the project or below it), whose files
 * name programs the daemon's git would run. OpenCode matches an edit by the file's path relative
 * to its project (its `*` spans `/`) and the last matching key wins, so the denials follow `*`;
 * `*\/.git` also covers the repository's own `.git` seen from a linked worktree (`../../x/.git/…`).
 */
function edit(action: Action): Action | Record<string, Action> {
  if (action === 'deny') return action;
  return { '*': action, '.git': 'deny', '.git/*': 'deny', '*/.git': 'deny', '*/.git/*': 'deny' };
}

export function opencodePermissionConfig(
  policy: PermissionPolicy,
  denied: readonly string[] = [],
): Record<string, Action | Record<string, Action>> {
  const all = (a: Action) => ({
    edit: edit(a),
    bash: a,
    webfetch: a,
    external_directory: externalDirectory(a, denied),
  });
  switch (policy) {
    case 'read-only':
      return all('deny');
    case 'ask':
      return all('ask');
    case 'auto-edit':
      return { ...all('ask'), edit: edit('allow') };
    case 'full':
      return all('allow');
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function opencodeApprovalAsk(p: OpencodePermissionAsked): ApprovalAsk {
  const command = text(p.metadata.command) ?? p.patterns.join(' ');
  if (p.permission === 'bash')
    return { kind: 'command', tool: 'Bash', summary: command, detail: command, rule: approvalRule('Bash', command) };
  if (p.permission === 'edit') {
    const path = text(p.metadata.filepath) ?? text(p.metadata.filePath) ?? p.patterns.join(', ');
    const diff = text(p.metadata.diff) ?? '';
    const { added, removed } = unifiedDiffCounts(diff);
    return {
      kind: 'file_change',
      tool: 'Edit',
      summary: `${path} (+${added} −${removed})`,
      detail: diff === '' ? path : `${path}\n${diff}`,
      rule: approvalRule('Edit', path),
    };
  }
  const subject = p.patterns.join(' ') || JSON.stringify(p.metadata);
  return {
    kind: 'other',
    tool: p.permission,
    summary: `${p.permission} ${subject}`,
    detail: JSON.stringify({ patterns: p.patterns, metadata: p.metadata }, null, 2),
    rule: approvalRule(p.permission, subject),
  };
}

/** The body of `POST /permission/{id}/reply`. */
export function opencodeReply(answer: ApprovalAnswer): { reply: 'once' | 'reject'; message?: string } {
  return answer.decision === 'allow'
    ? { reply: 'once' }
    : { reply: 'reject', message: answer.reason ?? 'The operator denied this request.' };
}
