/**
 * The inspector's timeline in plain words (issue 17): "Queued", "Delivered to Claude",
 * "Final check sent", "Replied" — never a bare status token such as `reply_sent`, in English and
 * 简体中文. Pure, so it is unit-tested without a DOM.
 */
import { refusalOf, refusalWords } from '../../../shared/agent-readiness.js';
import {
  COMPACTED_AFTER_OVERFLOW,
  OVERFLOW_RENEWAL_PREFIX,
  type AuditRecord,
  type PromptInput,
  type Wake,
  type WakeEvent,
} from '../../../shared/api/contract.js';
import { SilenceWatchdogSchema } from '../../../shared/config.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';
import { alertKindOfEvent, alertKindText } from './wake-chips.js';

const STATUS_COPY: Record<Wake['status'], CopyKey> = {
  queued: 'timeline.queued',
  delivered: 'timeline.delivered',
  final_check_sent: 'timeline.final_check_sent',
  reply_sent: 'timeline.reply_sent',
  failed: 'timeline.failed',
  completed_without_visible_reply: 'timeline.completed_without_visible_reply',
  paused: 'timeline.paused',
};

const EVENT_COPY: Record<Exclude<WakeEvent['kind'], 'status'>, CopyKey> = {
  beacon: 'inspector.event.beacon',
  escalation: 'inspector.event.escalation',
  final_check: 'inspector.event.final_check',
  delivery: 'inspector.event.delivery',
  alert: 'inspector.event.alert',
  compaction: 'inspector.event.compaction',
  wake_up: 'inspector.event.wake_up',
};

/**
 * Reasons of an ending without a reply worth a line of their own; `no_reply` is already said by
 * its status (a `failed` reason is told by the failure details instead).
 */
const REASON_COPY: Readonly<Record<string, CopyKey>> = {
  signal_only: 'reason.signal_only',
  final_check_undeliverable: 'reason.final_check_undeliverable',
  // issue 24: an overflow restart's originals end without a reply here; their recovery continues.
  context_overflow: 'reason.context_overflow',
};

export interface TimelineLine {
  readonly label: string;
  /** A second line in plain words, or null. */
  readonly note: string | null;
}

const WATCHDOG_DEFAULTS = SilenceWatchdogSchema.parse({});

/**
 * issue 24: a beacon or escalation the channel said in its own words (`message` /
 * `escalationMessage`): the journaled text, as it was shown; null for the defaults, which the
 * label already says in the UI language.
 */
function ownBeaconWords(event: WakeEvent): string | null {
  const text = event.detail;
  if (text === null) return null;
  if (event.kind === 'beacon') return text.startsWith(WATCHDOG_DEFAULTS.message) ? null : text;
  if (event.kind === 'escalation') return text === WATCHDOG_DEFAULTS.escalationMessage ? null : text;
  return null;
}

export function timelineLine(event: WakeEvent, agentName: string, language: Language): TimelineLine {
  const label =
    event.kind === 'status' && event.status !== null
      ? copy(language, STATUS_COPY[event.status], { agent: agentName })
      : copy(language, event.kind === 'status' ? 'inspector.event.status' : EVENT_COPY[event.kind]);
  let note: string | null = null;
  if (event.kind === 'alert') {
    const kind = alertKindOfEvent(event.detail);
    // issue 15: a refused message_send is named in plain words on its own row.
    const refusal = refusalOf(event.detail);
    note = kind !== null ? alertKindText(kind, language) : refusal !== null ? refusalWords(refusal, language) : null;
    // issue 38: an overflow that could not be continued by a compaction says so (its reason is in the API).
    if (note === null && event.detail?.startsWith(OVERFLOW_RENEWAL_PREFIX) === true)
      note = copy(language, 'inspector.note.overflowRenewed');
  } else if (event.kind === 'compaction') {
    // issue 38: a compaction after an overflow says so.
    note = event.detail === COMPACTED_AFTER_OVERFLOW ? copy(language, 'inspector.note.compactedAfterOverflow') : null;
  } else if (event.kind === 'wake_up') {
    // issue 42: how long the sleeping agent took to start again (the detail's seconds, in the UI's words).
    const seconds = /\(([\d.]+) s\)/.exec(event.detail ?? '')?.[1];
    note = seconds === undefined ? null : copy(language, 'inspector.note.wokeAfter', { seconds });
  } else if (event.kind === 'beacon' || event.kind === 'escalation') {
    note = ownBeaconWords(event);
  } else if (event.status !== 'failed' && event.reason !== null && Object.hasOwn(REASON_COPY, event.reason)) {
    note = copy(language, REASON_COPY[event.reason] as CopyKey);
  }
  return { label, note };
}

const AUDIT_COPY: Record<AuditRecord['kind'], CopyKey> = {
  cross_target_send: 'inspector.event.cross_target_send',
};

/**
 * issue 24 (contract §8.3): an audited send made while the wake was handled, e.g. "Sent to #ops —
 * cross-target". `where` is the destination as a person reads it (conversation-title.ts).
 */
export const auditLine = (a: AuditRecord, where: string, language: Language): TimelineLine => ({
  label: copy(language, AUDIT_COPY[a.kind], { target: where }),
  note: null,
});

/** One row of the inspector's timeline: a wake event, or an audited send. */
export type TimelineRow =
  { readonly kind: 'event'; readonly event: WakeEvent } | { readonly kind: 'audit'; readonly audit: AuditRecord };

/**
 * The wake's events and its audited sends in one time order: each audit record goes after the
 * events of its time or earlier (ISO times of one clock compare as text), the events keep theirs.
 */
export function timelineRows(events: readonly WakeEvent[], audit: readonly AuditRecord[]): TimelineRow[] {
  const rows: TimelineRow[] = [];
  let next = 0;
  for (const event of events) {
    while (next < audit.length && (audit[next] as AuditRecord).at < event.at)
      rows.push({ kind: 'audit', audit: audit[next++] as AuditRecord });
    rows.push({ kind: 'event', event });
  }
  while (next < audit.length) rows.push({ kind: 'audit', audit: audit[next++] as AuditRecord });
  return rows;
}

const PROMPT_COPY: Record<PromptInput['kind'], CopyKey> = {
  turn_context: 'prompt.kind.turn_context',
  delivery: 'prompt.kind.delivery',
  final_check: 'prompt.kind.final_check',
  recovery: 'prompt.kind.recovery',
  continuation: 'prompt.kind.continuation',
};

export const promptKindText = (kind: PromptInput['kind'], language: Language): string =>
  copy(language, PROMPT_COPY[kind]);
