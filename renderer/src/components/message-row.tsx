/**
 * One row of the message list (message-list.tsx): a date separator or a message with its
 * header, body, reactions, thread link and actions (issue 17).
 *
 * Memoised, with primitive or stable props, for scrolling (issue 19): the list re-renders on
 * every scroll frame (the virtualizer's window moves), and before this every visible row
 * re-rendered too — mentions re-split, three `Intl.DateTimeFormat` calls per message — which put
 * the scroll frame p95 at 50 ms over 10,000 messages. Now a row renders when it mounts or when
 * its own message, grouping, thread, focus or copy state changes; its times are formatted once
 * per message and language (`messageTimes`).
 */
import { memo } from 'react';
import type { Message, ThreadSummary } from '../../../shared/api/contract.js';
import { inboundChannel, mentionSpans } from '../conversations/message-rows.js';
import { channelName } from '../status/channel-name.js';
import { copy, type Language } from '../i18n/copy.js';
import { formatDateTime, formatDay, formatTime, formatTimeShort } from '../i18n/format.js';
import '../status/chain.css';

interface MessageTimes {
  readonly language: Language;
  /** "11:28 PM" / "23:28" */
  readonly time: string;
  /** "11:28": beside a grouped message. */
  readonly short: string;
  /** The full date and time (tooltip). */
  readonly full: string;
}

/** Messages are immutable values (a change arrives as a new object), so a WeakMap keyed by them is exact. */
const timesOf = new WeakMap<Message, MessageTimes>();

function messageTimes(m: Message, language: Language): MessageTimes {
  const hit = timesOf.get(m);
  if (hit?.language === language) return hit;
  const times = {
    language,
    time: formatTime(m.createdAt, language),
    short: formatTimeShort(m.createdAt, language),
    full: formatDateTime(m.createdAt, language),
  };
  timesOf.set(m, times);
  return times;
}

export const DayRow = memo(function DayRow({
  at,
  language,
  nowMs,
}: {
  readonly at: string;
  readonly language: Language;
  /** "Today"/"Yesterday" are relative to this (the list passes a value that changes only with its messages). */
  readonly nowMs: number;
}) {
  return (
    <div className="day-separator" role="separator">
      <span>
        {formatDay(at, language, nowMs, {
          today: copy(language, 'messages.today'),
          yesterday: copy(language, 'messages.yesterday'),
        })}
      </span>
    </div>
  );
});

export interface MessageRowProps {
  readonly message: Message;
  readonly grouped: boolean;
  readonly language: Language;
  readonly agentIds: ReadonlySet<string>;
  readonly thread: ThreadSummary | undefined;
  /** Its actions are in the Tab order (roving: one message at a time). */
  readonly active: boolean;
  /** "Copied" shows on its copy button. */
  readonly copied: boolean;
  /** The message a search result opened (marked until another is chosen). */
  readonly found?: boolean;
  onActivate(id: string): void;
  onCopy(message: Message): void;
  /** Absent inside a thread (no thread in a thread). */
  onReplyInThread?(message: Message): void;
}

export const MessageRowView = memo(function MessageRowView({
  message: m,
  grouped,
  language,
  agentIds,
  thread,
  active,
  copied,
  found = false,
  onActivate,
  onCopy,
  onReplyInThread,
}: MessageRowProps) {
  const author = m.authorKind === 'operator' ? copy(language, 'messages.you') : m.authorName;
  const times = messageTimes(m, language);
  const inbound = inboundChannel(m);
  return (
    <article
      className={`message message-${m.authorKind}${grouped ? ' grouped' : ''}${found ? ' found' : ''}`}
      data-message={m.id}
      data-seq={m.seq}
      tabIndex={-1}
      onFocus={() => onActivate(m.id)}
      aria-label={grouped ? `${author}, ${times.time}` : undefined}
    >
      <div className="message-gutter" aria-hidden={grouped ? true : undefined}>
        {grouped ? (
          <time className="message-time" dateTime={m.createdAt} title={times.full}>
            {times.short}
          </time>
        ) : (
          <span className={`avatar avatar-${m.authorKind}`} aria-hidden="true">
            {author.slice(0, 1).toUpperCase()}
          </span>
        )}
      </div>
      <div className="message-main">
        {!grouped && (
          <header className="message-head">
            <span className="message-author">{author}</span>
            {m.authorKind === 'agent' && m.addressed !== undefined && m.addressed.length > 0 && (
              // issue 25: an agent addressed other agents ("Claude → @codex"), whether or not they were woken.
              <span className="message-addressed" data-addressed={m.addressed.map((a) => a.agentId).join(' ')}>
                <span aria-hidden="true">→ {m.addressed.map((a) => `@${a.agentId}`).join(' ')}</span>
                <span className="visually-hidden">
                  {copy(language, 'chain.addressedTo', { agents: m.addressed.map((a) => `@${a.agentId}`).join(', ') })}
                </span>
              </span>
            )}
            <time className="message-time" dateTime={m.createdAt} title={times.full}>
              {times.time}
            </time>
            {m.redelivered && <span className="message-tag">{copy(language, 'messages.redelivered')}</span>}
            {inbound !== null && (
              // issue 40 item 9: a message that came in from another channel says where from.
              <span className="message-tag message-origin" data-origin={inbound}>
                {copy(language, 'messages.via', { channel: channelName(inbound, language) })}
              </span>
            )}
          </header>
        )}
        <div className="message-body">
          {mentionSpans(m.content, agentIds).map((s, i) =>
            s.mention ? (
              <span key={i} className="mention">
                {s.text}
              </span>
            ) : (
              s.text
            ),
          )}
        </div>
        {m.reactions.length > 0 && (
          <ul className="message-reactions" aria-label={copy(language, 'messages.reactions')}>
            {m.reactions.map((r) => (
              <li key={`${r.authorId}:${r.emoji}`} className="reaction" title={r.authorName}>
                <span aria-hidden="true">{r.emoji}</span> {r.authorName}
              </li>
            ))}
          </ul>
        )}
        {thread !== undefined && thread.replyCount > 0 && onReplyInThread !== undefined && (
          <button type="button" className="thread-link" onClick={() => onReplyInThread(m)}>
            {thread.replyCount === 1
              ? copy(language, 'messages.oneReply')
              : copy(language, 'messages.replies', { count: thread.replyCount })}
          </button>
        )}
      </div>
      <div className="message-actions" role="group" aria-label={copy(language, 'messages.actions')}>
        <button type="button" className="action" tabIndex={active ? 0 : -1} onClick={() => onCopy(m)}>
          {copy(language, copied ? 'messages.copied' : 'messages.copy')}
        </button>
        {onReplyInThread !== undefined && (
          <button type="button" className="action" tabIndex={active ? 0 : -1} onClick={() => onReplyInThread(m)}>
            {copy(language, 'messages.replyInThread')}
          </button>
        )}
      </div>
    </article>
  );
});
