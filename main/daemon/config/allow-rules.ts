/**
 * issue 14: an operator's "always" answer becomes a visible, revocable rule in that agent's
 * entry of agentteam.json (`"allow": ["Bash(npm test)"]`) — exactly the rule that was shown.
 * issue 29: the grant itself is the daemon's (the store, approvals/agent-grants.ts); this line
 * in the file lists it for reading, and a rule written there by anyone else is never applied.
 * Written through the config source (issue 17: agentteam.json is the one source of truth): only
 * that agent's `allow` value changes, every other byte stays as the person wrote it; nothing is
 * written while the file holds an edit that cannot be used; the result is validated, written
 * atomically and reloaded, so the agent row and the next request see the rule at once.
 * Revoking is deleting the rule from the file (picked up by the config watch).
 */
import type { Config } from '../../../shared/config.js';
import type { ConfigSource } from './config-source.js';
import type { JsonEdit } from './json-edit.js';

/** The edit that adds `rule` to the agent's `allow` list (none when it is already there). */
export function allowRuleEdits(config: Config, agentId: string, rule: string): JsonEdit[] {
  const index = config.agents.findIndex((a) => a.id === agentId);
  const agent = config.agents[index];
  if (agent === undefined) throw new Error(`agentteam.json has no agent "${agentId}"`);
  if (agent.allow.includes(rule)) return [];
  return [{ path: ['agents', index, 'allow'], value: [...agent.allow, rule] }];
}

/** Adds `rule` to the agent's `allow` list; returns null, or why it could not (nothing changed). */
export function addAllowRule(source: Pick<ConfigSource, 'write'>, agentId: string, rule: string): string | null {
  try {
    source.write((fresh) => allowRuleEdits(fresh, agentId, rule));
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
