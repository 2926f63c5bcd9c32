/**
 * issue 14: an operator's "always" answer becomes a visible, revocable rule in that agent's
 * entry of agentteam.json (`"allow": ["Bash(npm test)"]`) — exactly the rule that was shown.
 * The one place the daemon writes the config: it re-reads the file, changes only that agent's
 * `allow` array (keeping every other key as the person wrote it), validates the result with the
 * same schema, and replaces the file atomically (temp file + rename). Revoking is deleting the
 * line by hand.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigSchema } from '../../../shared/config.js';
import { CONFIG_FILE } from './load-config.js';

type Edit = (allow: string[]) => string[];

/** Adds `rule` to the agent's `allow` list; returns null, or why it could not (nothing changed). */
export function addAllowRule(dataDir: string, agentId: string, rule: string): string | null {
  return editAllow(dataDir, agentId, (allow) => (allow.includes(rule) ? allow : [...allow, rule]));
}

function editAllow(dataDir: string, agentId: string, edit: Edit): string | null {
  const file = join(dataDir, CONFIG_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return `${file} could not be read as JSON: ${err instanceof Error ? err.message : String(err)}`;
  }
  const agents = (raw as { agents?: unknown }).agents;
  const entry = Array.isArray(agents)
    ? (agents as Array<Record<string, unknown>>).find((a) => a !== null && typeof a === 'object' && a.id === agentId)
    : undefined;
  if (entry === undefined) return `${file} has no agent "${agentId}"`;
  const current = Array.isArray(entry.allow) ? (entry.allow as unknown[]).filter((r) => typeof r === 'string') : [];
  entry.allow = edit(current as string[]);
  const checked = ConfigSchema.safeParse(raw);
  if (!checked.success) return `${file} would no longer be valid (${checked.error.issues[0]?.message ?? 'invalid'})`;
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(raw, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    return `${file} could not be written: ${err instanceof Error ? err.message : String(err)}`;
  }
  return null;
}
