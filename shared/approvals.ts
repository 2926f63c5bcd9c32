/**
 * Approvals (issue 14): what a runtime CLI would ask a person becomes a request to the operator.
 * The vocabularies, one definition each: the store, the API contract, the CLI and the UI use these.
 */
export const APPROVAL_STATUSES = ['pending', 'allowed', 'denied', 'expired', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const APPROVAL_DECISIONS = ['allow', 'deny'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/**
 * `once`: this request only; `session`: the same rule for the rest of this runtime session (until
 * the runtime restarts); `always`: the rule is written to the agent's `allow` list in agentteam.json.
 */
export const APPROVAL_SCOPES = ['once', 'session', 'always'] as const;
export type ApprovalScope = (typeof APPROVAL_SCOPES)[number];

/** What the request is about: a shell command, a file change, or another tool of the CLI. */
export const APPROVAL_KINDS = ['command', 'file_change', 'other'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/**
 * The rule an "always" answer records: exactly what was shown, e.g. `Bash(npm test)` — never a
 * prefix or a pattern (people complain when "always" is broader than it said).
 */
export function approvalRule(tool: string, subject: string): string {
  return `${tool}(${subject})`;
}
