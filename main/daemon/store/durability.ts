/**
 * Durability classes of the store's writes (issue 19: ~6 fsyncs per wake made the daemon's share
 * of a wake grow with the disk's fsync time; the goal is ≤ 2 ms per wake, commits included).
 *
 * The store runs in WAL mode. A commit with `synchronous=FULL` fsyncs the WAL before it returns;
 * with `synchronous=NORMAL` it only appends its frames. The WAL is one append-only file with
 * chained checksums, so after a power loss SQLite recovers a PREFIX of the commit order, and
 * that prefix always reaches the last FULL commit: the fsync of a FULL commit makes every
 * earlier NORMAL commit durable with it. A process crash (kill -9, a daemon bug) loses nothing
 * in either class: a committed frame is in the OS's page cache, which the crash does not touch.
 * Only an OS crash or a power loss can drop the NORMAL commits made after the last FULL one —
 * and then the whole machine went down: the UI, the runtime CLIs and their sessions with it.
 *
 * So a write may be NORMAL only when losing it in that window keeps every promise:
 * - `full` (the default): what someone outside the daemon already relies on when the call
 *   returns, or what the restart cannot re-derive —
 *   · an admitted operator message and its wakes (the sender was told `sent`; a Telegram update
 *     offset advances only after it), an agent's reply message with its RepliedUpToSeq (the
 *     agent was told `sent` and will not send it again), channel cursors, recovery markers,
 *     undelivered replies, approvals, conversations, members;
 *   · a terminal `failed` / `completed_without_visible_reply` (contract §6.2: at most one
 *     terminal status per wake; the restart would end a wake that lost it differently);
 *   · an `alert` on a wake (a person is told a reply may not have arrived).
 * - `normal`: the wake's progress and timeline, whose loss the restart turns into the same or
 *   an earlier, still correct state (contract §6.6, issue 16; WakeLifecycle.restore):
 *   · `delivered` (+ SeenUpToSeq, same transaction): the wake is `queued` again and is delivered
 *     to the new runtime process (the old one, which had seen it, is gone with the machine);
 *   · `final_check_sent`: the wake is `delivered` again and is recovered like any in-flight wake;
 *   · `reply_sent` when the agent's durable RepliedUpToSeq of the wake's target already covers
 *     it: the restart settles it `reply_sent` (`already_sent`) again — the same terminal status,
 *     never a second, different one (§6.2). Otherwise (e.g. a reaction as the reply) it is FULL;
 *   · beacons, escalations, final-check and delivery timeline events, prompt_input entries
 *     (contract §8.4 trajectory of prompts written into a runtime process that is gone too).
 *
 * Per wake on the happy path this leaves two FULL commits (admission, the reply) instead of six.
 * issue 30, group commit (group-commit.ts): the FULL commits of one event-loop turn share ONE
 * fsync of the WAL, on the thread pool; "synced before the call returns" becomes "synced before
 * anyone outside is told" — API answers, pushes, tool results and channel cursors wait for
 * `Store.whenDurable()` (main/daemon/durable-answers.ts). The classes above are unchanged.
 */
import { isTerminal, type WakeStatus } from '../../../shared/wake-status.js';
import type { WakeEventKind } from './store-records.js';

/** `full`: durable before anyone outside is told (`Store.whenDurable`); `normal`: with the next FULL sync or checkpoint. */
export type Durability = 'full' | 'normal';

/**
 * The class of one wake event. `replyCovered`: the agent's stored RepliedUpToSeq of the wake's
 * target covers the wake (asked only for `reply_sent`).
 */
export function wakeEventDurability(
  kind: WakeEventKind,
  status: WakeStatus | undefined,
  replyCovered: () => boolean,
): Durability {
  if (kind === 'alert') return 'full';
  // Any kind may move the status too (WakeEventInput.status): the status decides then.
  if (status === undefined) return 'normal';
  if (status === 'reply_sent') return replyCovered() ? 'normal' : 'full';
  // issue 27: a pause survives a restart (the recovery service re-arms its reset).
  if (isTerminal(status) || status === 'queued' || status === 'paused') return 'full';
  return 'normal';
}
