/**
 * An agent's permission policy on Claude Code's own mechanism (issue 14; research/runtimes.md
 * appendix): `--permission-mode` plus `--permission-prompt-tool stdio`, which routes every
 * question the CLI would ask a person into the stream-json control protocol as a `can_use_tool`
 * control_request (the Agent SDK's `canUseTool`). We answer it with a control_response:
 * `{behavior:"allow", updatedInput}` or `{behavior:"deny", message}` — the message is what the
 * model reads. Our own MCP tools are always in `--allowedTools`: they never need approval.
 *
 * | policy      | --permission-mode    | questions                                    |
 * |-------------|----------------------|----------------------------------------------|
 * | `read-only` | `dontAsk`            | none: anything not pre-approved is refused    |
 * | `ask`       | `default`            | every tool use the CLI would ask about       |
 * | `auto-edit` | `acceptEdits`        | commands (edits in the workspace are allowed) |
 * | `full`      | `bypassPermissions`  | none                                         |
 */
import type { PermissionPolicy } from '../../../../shared/config.js';
import { lineDiff, textLines } from '../../../../shared/line-diff.js';
import { approvalRule } from '../../../../shared/approvals.js';
import type { ApprovalAnswer, ApprovalAsk } from '../approval-port.js';
import type { ClaudeCanUseToolRequest } from './claude-stream-types.js';

export function claudePermissionArgs(policy: PermissionPolicy): string[] {
  switch (policy) {
    case 'read-only':
      return ['--permission-mode', 'dontAsk'];
    case 'ask':
      return ['--permission-mode', 'default', '--permission-prompt-tool', 'stdio'];
    case 'auto-edit':
      return ['--permission-mode', 'acceptEdits', '--permission-prompt-tool', 'stdio'];
    case 'full':
      // Root refuses bypassPermissions unless it is explicitly allowed as an option.
      return ['--permission-mode', 'bypassPermissions', '--allow-dangerously-skip-permissions'];
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/**
 * The replacements a file tool asks for: Edit's one, MultiEdit's list, Write's and NotebookEdit's
 * new text (their old text is not in the request).
 */
function replacements(input: Record<string, unknown>): { removed: string; added: string }[] {
  if (Array.isArray(input.edits))
    return input.edits.map((e: unknown) => {
      const edit = (e ?? {}) as Record<string, unknown>;
      return { removed: text(edit.old_string) ?? '', added: text(edit.new_string) ?? '' };
    });
  return [
    {
      removed: text(input.old_string) ?? '',
      added: text(input.content) ?? text(input.new_string) ?? text(input.new_source) ?? '',
    },
  ];
}

/** What the operator is shown for one `can_use_tool` request. */
export function claudeApprovalAsk(req: ClaudeCanUseToolRequest): ApprovalAsk {
  const input = req.input ?? {};
  const command = text(input.command);
  if (req.tool_name === 'Bash' && command !== null)
    return { kind: 'command', tool: 'Bash', summary: command, detail: command, rule: approvalRule('Bash', command) };
  const path = text(input.file_path) ?? text(input.notebook_path);
  if (path !== null && ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(req.tool_name)) {
    // issue 40 item 9: the lines that stay are context, never counted (shared/line-diff.ts, as the demo's ask).
    const diffs = replacements(input).map((r) => lineDiff(textLines(r.removed), textLines(r.added)));
    const added = diffs.reduce((n, d) => n + d.added, 0);
    const removed = diffs.reduce((n, d) => n + d.removed, 0);
    return {
      kind: 'file_change',
      tool: req.tool_name,
      summary: `${path} (+${added} −${removed})`,
      detail: [path, ...diffs.map((d) => d.lines.join('\n'))].join('\n'),
      rule: approvalRule(req.tool_name, path),
    };
  }
  const json = JSON.stringify(input);
  return {
    kind: 'other',
    tool: req.tool_name,
    summary: `${req.tool_name} ${json.length > 160 ? `${json.slice(0, 159)}…` : json}`,
    detail: JSON.stringify(input, null, 2),
    rule: approvalRule(req.tool_name, json),
  };
}

/** The control_response payload for an answer (`updatedInput` is the input unchanged: we never edit it). */
export function claudePermissionResult(req: ClaudeCanUseToolRequest, answer: ApprovalAnswer): Record<string, unknown> {
  return answer.decision === 'allow'
    ? { behavior: 'allow', updatedInput: req.input ?? {} }
    : { behavior: 'deny', message: answer.reason ?? 'The operator denied this request.' };
}
