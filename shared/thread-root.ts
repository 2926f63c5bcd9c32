/**
 * Threads started from a message (issue 17): the thread's short id is derived from the root
 * message's id, so `#channel:<shortid>` names its root without a new column or table.
 * Message ids are `msg_<uuid>` or `msg_r<hex>` (store-ids.ts); the 8 characters after `msg_`
 * are ASCII letters and digits in both forms, which the target grammar accepts as a short id.
 */

/** Length of a thread short id derived from a message id. */
export const THREAD_SHORT_ID_LENGTH = 8;

/** The thread short id of a message id, or null when the id cannot name a thread. */
export function threadShortIdOf(messageId: string): string | null {
  if (!messageId.startsWith('msg_')) return null;
  const short = messageId.slice(4, 4 + THREAD_SHORT_ID_LENGTH).toLowerCase();
  return /^[a-z0-9]{8}$/.test(short) ? short : null;
}
