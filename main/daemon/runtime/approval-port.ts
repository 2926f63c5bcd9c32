/**
 * The one capability every CLI driver gets for permissions (issue 14): a driver turns its wire's
 * permission question (Claude `can_use_tool`, Codex `item/*\/requestApproval`, OpenCode
 * `permission.asked`) into an `ApprovalAsk`, awaits the operator's `ApprovalAnswer` and writes
 * it back in its wire's words. Who answers (always rules, the operator, expiry, a restart) is the
 * host's business (approvals/approval-service.ts); a driver never decides by itself.
 */
import type { ApprovalKind, ApprovalScope, ApprovalStatus } from '../../../shared/approvals.js';

export interface ApprovalAsk {
  readonly kind: ApprovalKind;
  /** The tool as shown to the operator and as the rule names it (`Bash`, `Edit`, `WebFetch`…). */
  readonly tool: string;
  /**
   * One line: the command line (for `kind: "command"`, exactly the command the runtime would run:
   * the skeleton recognises the agent's own `agentteam agent …` by it), or the file path with
   * added/removed line counts.
   */
  readonly summary: string;
  /** The full command or diff (shown escaped, never as HTML). */
  readonly detail: string;
  /**
   * What an "always" answer records, e.g. `Bash(npm test)` (shared/approvals.ts `approvalRule`).
   * issue 29: null when what is asked cannot be stated exactly (input to a running terminal, a
   * file change whose files the runtime did not name, a permission profile): then only "once"
   * is offered — never a rule broader or vaguer than what was shown.
   */
  readonly rule: string | null;
}

export interface ApprovalAnswer {
  readonly decision: 'allow' | 'deny';
  readonly scope: ApprovalScope;
  /** The final status of the request (`allowed`, `denied`, `expired`, `cancelled`). */
  readonly status: Exclude<ApprovalStatus, 'pending'>;
  /** For a deny: what the agent is told (the operator's reason, the expiry, the restart). */
  readonly reason: string | null;
}

/** The host side: the agent session adds the agent, turn and wakes and forwards to the approval service. */
export interface ApprovalHost {
  requestApproval(ask: ApprovalAsk): Promise<ApprovalAnswer>;
}

/** Where no host answers (unit tests of a driver alone): a deny the agent can read. */
export const NO_APPROVAL_HOST: ApprovalAnswer = {
  decision: 'deny',
  scope: 'once',
  status: 'denied',
  reason: 'AgentTeam has no operator connected to answer this request.',
};

/**
 * The one way a runtime asks (the skeleton for the CLI drivers, the demo runtime in its thread): the
 * host answers; no host → a deny the agent reads; a host that throws → a deny naming why, never a
 * question left open that nobody can answer. `onError` logs it.
 */
export async function askApprovalHost(
  requestApproval: ApprovalHost['requestApproval'] | undefined,
  ask: ApprovalAsk,
  onError: (error: string) => void,
): Promise<ApprovalAnswer> {
  try {
    return (await requestApproval?.(ask)) ?? NO_APPROVAL_HOST;
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    onError(error);
    return { ...NO_APPROVAL_HOST, reason: `AgentTeam could not record this request (${error}).` };
  }
}
