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
const lines = (s: string): number => (s === '' ? 0 : s.split('\n').length);

/** What the operator is shown for one `can_use_tool` request. */
export function claudeApprovalAsk(req: ClaudeCanUseToolRequest): ApprovalAsk {
  const input = req.input ?? {};
  const command = text(input.command);
  if (req.tool_name === 'Bash' && command !== null)
    return { kind: 'command', tool: 'Bash', summary: command, detail: command, rule: approvalRule('Bash', command) };
  const path = text(input.file_path) ?? text(input.notebook_path);
  if (path !== null && ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'].includes(req.tool_name)) {
    const added = text(input.content) ?? text(input.new_string) ?? text(input.new_source) ?? '';
    const removed = text(input.old_string) ?? '';
    const detail =
      removed === ''
        ? added
            .split('\n')
            .map((l) => `+${l}`)
            .join('\n')
        : `${removed
            .split('\n')
            .map((l) => `-${l}`)
            .join('\n')}\n${added
            .split('\n')
            .map((l) => `+${l}`)
            .join('\n')}`;
    return {
      kind: 'file_change',
      tool: req.tool_name,
      summary: `${path} (+${lines(added)} −${lines(removed)})`,
      detail: `${path}\n${detail}`,
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
