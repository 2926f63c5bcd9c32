/**
 * @mention completion in the composer: the mention being typed at the caret, the agents that
 * match it, and the text after choosing one. Member names follow the target grammar
 * (lower-case letters, digits, ".", "-", "_").
 */
import type { Agent } from '../../../shared/api/contract.js';
import { mentionsIn } from '../../../shared/mention.js';

export interface MentionQuery {
  /** Index of the "@". */
  readonly start: number;
  /** What follows the "@" up to the caret. */
  readonly query: string;
}

/** The mention under the caret, if the caret is right after "@name-so-far" that starts a word. */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|[\s(])@([a-z0-9._-]*)$/i.exec(before);
  if (match === null) return null;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query };
}

/** Agents whose id or name starts with the query (ids first), at most `max`. */
export function matchAgents<A extends Pick<Agent, 'id' | 'name'>>(agents: readonly A[], query: string, max = 8): A[] {
  const q = query.toLowerCase();
  const byId = agents.filter((a) => a.id.startsWith(q));
  const byName = agents.filter((a) => !a.id.startsWith(q) && a.name.toLowerCase().startsWith(q));
  return [...byId, ...byName].slice(0, max);
}

/** Replaces the mention under the caret with `@id ` and returns the new text and caret. */
export function completeMention(text: string, mention: MentionQuery, agentId: string): { text: string; caret: number } {
  const end = mention.start + 1 + mention.query.length;
  const insert = `@${agentId} `;
  const rest = text.slice(end).replace(/^\s/, '');
  return { text: text.slice(0, mention.start) + insert + rest, caret: mention.start + insert.length };
}

/**
 * The mentions in `text` that match no agent (issue 40 item 2: such a mention wakes nobody), as
 * written, once each — by the router's own rule (shared/mention.ts), so the warning and the wake agree.
 * `typingAt` is the index of the "@" still being typed, left out until the person leaves it.
 */
export function unknownMentions(
  text: string,
  agents: readonly Pick<Agent, 'id'>[],
  typingAt: number | null = null,
): string[] {
  const known = new Set(agents.map((a) => a.id.toLowerCase()));
  const out: string[] = [];
  for (const { id, index } of mentionsIn(text)) {
    if (index === typingAt || known.has(id.toLowerCase())) continue;
    if (!out.some((o) => o.toLowerCase() === id.toLowerCase())) out.push(id);
  }
  return out;
}
