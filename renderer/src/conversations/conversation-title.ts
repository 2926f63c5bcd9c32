/**
 * What a person reads for a conversation (issue 17): a channel is `#name`; a DM is the agent's
 * display name; a thread is "Thread in #channel" (never `#channel:shortid`).
 */
import type { Agent } from '../../../shared/api/contract.js';
import { parseTarget, threadParent } from '../../../shared/target.js';
import { copy, type Language } from '../i18n/copy.js';

/** The title of a conversation's main line (a channel or a DM), without thread. */
function baseTitle(target: string, agents: readonly Pick<Agent, 'id' | 'name'>[]): string {
  const parsed = parseTarget(target);
  if (!parsed.ok) return target;
  const t = parsed.target;
  if (t.kind === 'channel') return `#${t.channel}`;
  return agents.find((a) => a.id === t.member)?.name ?? `@${t.member}`;
}

export interface ConversationTitle {
  readonly title: string;
  /** The parent's title for a thread, else null. */
  readonly parentTitle: string | null;
  readonly parent: string | null;
  readonly kind: 'channel' | 'dm' | 'thread';
}

export function conversationTitle(
  target: string,
  agents: readonly Pick<Agent, 'id' | 'name'>[],
  language: Language,
): ConversationTitle {
  const parsed = parseTarget(target);
  if (!parsed.ok) return { title: target, parentTitle: null, parent: null, kind: 'channel' };
  const parent = threadParent(target);
  if (parent === null)
    return { title: baseTitle(target, agents), parentTitle: null, parent: null, kind: parsed.target.kind };
  const parentTitle = baseTitle(parent, agents);
  return {
    title: copy(language, 'conversation.threadIn', { parent: parentTitle }),
    parentTitle,
    parent,
    kind: 'thread',
  };
}
