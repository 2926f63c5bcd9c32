/**
 * Which agents an operator message wakes (DESIGN.md data flow: "router (mentions / DM)").
 * In a channel or channel thread: every agent mentioned as `@id`. In a DM with an agent (or a
 * thread of it): that agent, plus any other agent mentioned. Agent-authored messages wake no one:
 * a reply that mentions another agent must not start an agent-to-agent echo loop (contract §2).
 */
import type { Target } from '../../../shared/target.js';

const MENTION = /(^|[^a-z0-9._-])@([a-z0-9][a-z0-9._-]{0,63})/gi;

/** Agent ids mentioned in a text, in order of first appearance, lower-cased. */
export function mentionedIds(content: string): string[] {
  const ids: string[] = [];
  for (const m of content.matchAll(MENTION)) {
    // A trailing "." or "-" is punctuation, not part of the id ("thanks @claude.").
    const id = (m[2] ?? '').toLowerCase().replace(/[._-]+$/, '');
    if (id !== '' && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * The agents to wake for a message, in a stable order (DM agent first, then mentions as written).
 * Unknown ids are ignored; `authorKind: 'agent'` wakes no one.
 */
export function agentsToWake(input: {
  readonly target: Target;
  readonly authorKind: 'operator' | 'agent';
  readonly content: string;
  readonly agentIds: ReadonlySet<string>;
}): string[] {
  if (input.authorKind !== 'operator') return [];
  const wake: string[] = [];
  if (input.target.kind === 'dm' && input.agentIds.has(input.target.member)) wake.push(input.target.member);
  for (const id of mentionedIds(input.content)) if (input.agentIds.has(id) && !wake.includes(id)) wake.push(id);
  return wake;
}
