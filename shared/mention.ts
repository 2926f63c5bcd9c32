/**
 * What counts as an `@id` mention — the one rule the daemon's router (main/daemon/router/mention-router.ts,
 * which wakes the agents a message mentions), the message list (highlighting) and the composer
 * (warning of a mention that matches no agent, issue 40 item 2) all read, so the page never
 * promises a wake the daemon would not make, nor stays silent about one it would not.
 * Member ids follow the target grammar (shared/target.ts): letters, digits, ".", "-", "_".
 */

/** `@` that starts a word (not "ops@claude.dev"), then an id of up to 64 characters. */
const MENTION = /(^|[^a-z0-9._-])@([a-z0-9][a-z0-9._-]{0,63})/gi;

export interface Mention {
  /** As written (case kept), without trailing punctuation: "thanks @claude." mentions "claude". */
  readonly id: string;
  /** Index of the "@" in the text. */
  readonly index: number;
}

/** Every mention in a text, in order (repeats included). */
export function mentionsIn(content: string): Mention[] {
  const out: Mention[] = [];
  for (const m of content.matchAll(MENTION)) {
    // A trailing "." or "-" is punctuation, not part of the id ("thanks @claude.").
    const id = (m[2] ?? '').replace(/[._-]+$/, '');
    if (id !== '') out.push({ id, index: m.index + (m[1] ?? '').length });
  }
  return out;
}

/** Agent ids mentioned in a text, in order of first appearance, lower-cased. */
export function mentionedIds(content: string): string[] {
  const ids: string[] = [];
  for (const { id } of mentionsIn(content)) {
    const lower = id.toLowerCase();
    if (!ids.includes(lower)) ids.push(lower);
  }
  return ids;
}

/** The text with each mention replaced by its bare id, so quoting it wakes nobody (issue 25). */
export function withoutMentions(content: string): string {
  return content.replace(MENTION, '$1$2');
}
