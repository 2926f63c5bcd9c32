/**
 * issue 14: an agent's entry in agentteam.json edited from the UI — its workspace (`cwd`), its
 * permission policy, and the revocation of one of its "always" rules. Each is a minimal edit of
 * that one key, computed from the file as it is at the time of the write (the agent's index), and
 * goes through the config source's one write path (validated, atomic, reloaded: config-source.ts).
 */
import { ApiError } from '../../../shared/api/contract.js';
import type { Config, Isolation, PermissionPolicy } from '../../../shared/config.js';
import type { Budget } from '../../../shared/usage.js';
import { map, mergeMap, pairwise, startWith, type Observable } from 'rxjs';
import type { JsonEdit } from './json-edit.js';

/** What the agent detail view may change. */
export interface AgentSettingsChange {
  readonly cwd?: string;
  readonly permissions?: PermissionPolicy;
  /** issue 26: where it works (`cwd` itself, or a worktree of its own) and the worktree's base branch (null: `cwd`'s). */
  readonly isolation?: Isolation;
  readonly baseBranch?: string | null;
}

function indexOf(config: Config, agentId: string): number {
  const index = config.agents.findIndex((a) => a.id === agentId);
  if (index < 0) throw new ApiError('unknown_agent', `There is no agent "${agentId}" in agentteam.json.`);
  return index;
}

/** The edits that set the agent's `cwd`, `permissions`, `isolation`, `baseBranch` (none for a value it already has). */
export function agentSettingsEdits(config: Config, agentId: string, change: AgentSettingsChange): JsonEdit[] {
  const index = indexOf(config, agentId);
  const agent = config.agents[index]!;
  const edits: JsonEdit[] = [];
  if (change.cwd !== undefined && change.cwd !== agent.cwd)
    edits.push({ path: ['agents', index, 'cwd'], value: change.cwd });
  if (change.permissions !== undefined && change.permissions !== agent.permissions)
    edits.push({ path: ['agents', index, 'permissions'], value: change.permissions });
  if (change.isolation !== undefined && change.isolation !== agent.isolation)
    edits.push({ path: ['agents', index, 'isolation'], value: change.isolation });
  if (change.baseBranch !== undefined && change.baseBranch !== agent.baseBranch)
    edits.push({ path: ['agents', index, 'baseBranch'], value: change.baseBranch });
  return edits;
}

/** The edit that removes exactly `rule` from the agent's `allow` list; an unknown rule is a clear error. */
export function revokeRuleEdits(config: Config, agentId: string, rule: string): JsonEdit[] {
  const index = indexOf(config, agentId);
  const allow = config.agents[index]!.allow;
  if (!allow.includes(rule))
    throw new ApiError(
      'unknown_rule',
      `Agent "${agentId}" has no "always" rule ${JSON.stringify(rule)}; its rules are: ${allow.length === 0 ? 'none' : allow.map((r) => JSON.stringify(r)).join(', ')}.`,
    );
  return [{ path: ['agents', index, 'allow'], value: allow.filter((r) => r !== rule) }];
}

/**
 * issue 27: the edit that sets the agent's daily `budget` (the operator's Raise budget); none when
 * it already has exactly that budget. Only the keys given are written: `{ tokens }` keeps no cost limit.
 * issue 39: `null` removes the agent's `budget` key (the comments around it stay: json-edit.ts);
 * none when it has no budget.
 */
export function budgetEdits(agentId: string, budget: Budget | null): (config: Config) => JsonEdit[] {
  return (config) => {
    const index = indexOf(config, agentId);
    const before = config.agents[index]!.budget;
    if (budget === null) return before === undefined ? [] : [{ path: ['agents', index, 'budget'], remove: true }];
    if (before?.tokens === budget.tokens && before?.costUsd === budget.costUsd) return [];
    return [{ path: ['agents', index, 'budget'], value: budget }];
  };
}

/**
 * issue 27: the agents whose `budget` changed in agentteam.json (Raise budget writes it, or an edit by
 * hand), one id per change: a budget applies at once, no restart.
 */
export function budgetChanges(initial: Config, configs$: Observable<Config>): Observable<string> {
  const budgets = (config: Config) => new Map(config.agents.map((a) => [a.id, JSON.stringify(a.budget ?? null)]));
  return configs$.pipe(
    map(budgets),
    startWith(budgets(initial)),
    pairwise(),
    mergeMap(([before, after]) => [...before.keys()].filter((id) => after.has(id) && after.get(id) !== before.get(id))),
  );
}
