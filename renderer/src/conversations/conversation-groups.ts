/** Sidebar grouping: channels, direct messages, and threads under their parent conversation. */
import type { Conversation } from '../../../shared/api/contract.js';
import { threadParent } from '../../../shared/target.js';

export interface ConversationGroups {
  readonly channels: readonly Conversation[];
  readonly dms: readonly Conversation[];
  /** Threads keyed by their parent's target (a thread never collapses to its parent). */
  readonly threads: ReadonlyMap<string, readonly Conversation[]>;
}

const byTarget = (a: Conversation, b: Conversation): number => a.target.localeCompare(b.target);

export function groupConversations(conversations: readonly Conversation[]): ConversationGroups {
  const threads = new Map<string, Conversation[]>();
  for (const c of conversations) {
    const parent = c.kind === 'thread' ? (c.parent ?? threadParent(c.target)) : null;
    if (parent === null) continue;
    threads.set(parent, [...(threads.get(parent) ?? []), c].sort(byTarget));
  }
  return {
    channels: conversations.filter((c) => c.kind === 'channel').sort(byTarget),
    dms: conversations.filter((c) => c.kind === 'dm').sort(byTarget),
    threads,
  };
}

/** Conversations whose target or title contains `query` (case-insensitive), for the Ctrl+K switcher. */
export function matchConversations(conversations: readonly Conversation[], query: string): Conversation[] {
  const q = query.trim().toLowerCase();
  const all = [...conversations].sort(byTarget);
  return q === '' ? all : all.filter((c) => c.target.toLowerCase().includes(q) || c.title.toLowerCase().includes(q));
}
