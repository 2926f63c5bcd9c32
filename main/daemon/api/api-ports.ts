/**
 * What the daemon API calls on the services it answers for, as ports (STYLE.md habit 16: imports
 * point down). The conversation, agent-settings and approval services sit above the API
 * room; each satisfies its port structurally, so `api/` names only the methods it calls and the
 * words of the rooms below it (store records, config edits, the shared contract).
 */
import type { ApiResponse, Chain, ChangesSinceBase, TeamAgent } from '../../../shared/api/contract.js';
import type { ApprovalDecision, ApprovalScope, ApprovalStatus } from '../../../shared/approvals.js';
import type { TargetKey } from '../../../shared/target.js';
import type { Budget, UsageSummary, WakeUsage } from '../../../shared/usage.js';
import type { AgentSettingsChange } from '../config/agent-edits.js';
import type { ApprovalRecord, MessageRecord } from '../store/index.js';

/** The operator's side of a conversation (services/conversation-service.ts). */
export interface ConversationsPort {
  /** Canonical key of a target typed by a person; throws `ApiError` (`invalid_target`, `unknown_target`). */
  parse(text: string): TargetKey;
  /** Stores an operator message and wakes the agents it addresses. */
  post(targetText: string, content: string): { readonly message: MessageRecord };
}

/** issue 14: an agent's workspace / policy and its "always" rules (services/agent-settings.ts). */
export interface AgentSettingsPort {
  /** Whether something changed (and the agent restarts). */
  update(agentId: string, change: AgentSettingsChange): boolean;
  revokeRule(agentId: string, rule: string): void;
  /** issue 29: a rule agentteam.json lists without a grant, confirmed by the operator. */
  confirmRule(agentId: string, rule: string): void;
}

/** issue 29: the operator's Stop of an agent's running turn (services/turn-deadlines.ts). */
export interface TurnsPort {
  /** Throws `ApiError` `unknown_agent` / `not_working`. */
  stop(agentId: string): void;
}

/** issue 27: usage per agent per day, limit windows, budgets (usage/usage-service.ts). */
export interface UsagePort {
  summary(filter: { agentId?: string; since?: string }): UsageSummary;
  wake(wakeToken: string): WakeUsage | null;
  /** Sets the agent's daily budget, or (null) removes it. Throws `ApiError` `unknown_agent` / `budget_invalid` / `config_invalid`. */
  raiseBudget(agentId: string, budget: Budget | null): void;
}

/** issue 14: approvals listed and answered by the operator (approvals/approval-service.ts). */
export interface ApprovalsPort {
  list(filter?: { status?: ApprovalStatus; limit?: number; wakeToken?: string }): ApprovalRecord[];
  answer(id: string, decision: ApprovalDecision, scope?: ApprovalScope, reason?: string): ApprovalRecord;
}

/** issue 26: an isolated agent's worktree against its base (worktrees/wake-changes.ts). */
export interface ChangesPort {
  /** Throws `ApiError` `not_isolated` for an agent that works in its own folder. */
  sinceBase(agentId: string): Promise<ChangesSinceBase>;
}

/** issue 25: agent chains and the Team board (teams/team-service.ts). */
export interface TeamsPort {
  listChains(filter: { readonly target?: TargetKey; readonly pausedOnly?: boolean; readonly limit?: number }): Chain[];
  /** The operator's Continue; throws `ApiError` `unknown_chain` / `not_paused`. */
  continueChain(request: { readonly chainId?: string; readonly target?: TargetKey }): Chain;
  board(): TeamAgent[];
}

/** issue 26: an isolated agent's worktree (worktrees/worktree-service.ts); failures throw `ApiError`. */
export interface WorktreesPort {
  changes(agentId: string): Promise<ApiResponse<'worktree.changes'>>;
  merge(agentId: string, message?: string): Promise<ApiResponse<'worktree.merge'>>;
  discard(agentId: string): Promise<ApiResponse<'worktree.discard'>>;
}
