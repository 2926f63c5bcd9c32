/**
 * The rows of a message list (issue 17): a date separator before the first message of each local
 * day, and consecutive messages of one author within a few minutes grouped under one header, as
 * chat apps do. Pure, so it is unit-tested without a DOM.
 */
import type { Message } from '../../../shared/api/contract.js';
import { mentionsIn } from '../../../shared/mention.js';
import { dayKey } from '../i18n/format.js';

/** Messages of one author closer than this share a header. */
export const GROUP_GAP_MS = 5 * 60_000;

export type MessageRow =
  | { readonly kind: 'day'; readonly key: string; readonly at: string }
  | { readonly kind: 'message'; readonly key: string; readonly message: Message; readonly grouped: boolean };

export function messageRows(messages: readonly Message[]): MessageRow[] {
  const rows: MessageRow[] = [];
  let prev: Message | undefined;
  for (const m of messages) {
    const day = dayKey(m.createdAt);
    const newDay = prev === undefined || dayKey(prev.createdAt) !== day;
    if (newDay) rows.push({ kind: 'day', key: `day:${day}`, at: m.createdAt });
    const grouped =
      !newDay &&
      prev !== undefined &&
      prev.authorId === m.authorId &&
      prev.authorKind === m.authorKind &&
      !m.redelivered &&
      // issue 40 item 9: a message from another channel keeps its header, which says where it came from.
      inboundChannel(m) === inboundChannel(prev) &&
      Date.parse(m.createdAt) - Date.parse(prev.createdAt) < GROUP_GAP_MS;
    rows.push({ kind: 'message', key: m.id, message: m, grouped });
    prev = m;
  }
  return rows;
}

/**
 * issue 40 item 9: the channel an operator message came in from (`telegram`), null when it was
 * written here. A channel stores its inbound message under `<channel>:<update id>` (the idempotency
 * key of ConversationService.post, kept as the message's response id).
 */
export function inboundChannel(m: Pick<Message, 'authorKind' | 'responseId'>): string | null {
  if (m.authorKind === 'agent' || m.responseId === null) return null;
  return /^([a-z][a-z0-9_-]*):\d+$/.exec(m.responseId)?.[1] ?? null;
}

/** Splits text into plain runs and `@id` mentions of known agents (shown highlighted; the router's rule, shared/mention.ts). */
export function mentionSpans(
  text: string,
  agentIds: ReadonlySet<string>,
): Array<{ readonly text: string; readonly mention: boolean }> {
  const out: Array<{ text: string; mention: boolean }> = [];
  let last = 0;
  for (const { id, index } of mentionsIn(text)) {
    if (!agentIds.has(id.toLowerCase())) continue;
    if (index > last) out.push({ text: text.slice(last, index), mention: false });
    out.push({ text: `@${id}`, mention: true });
    last = index + 1 + id.length;
  }
  if (last < text.length) out.push({ text: text.slice(last), mention: false });
  return out;
}
