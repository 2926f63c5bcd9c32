/**
 * Which chips the one status area shows (UI.md; contract §10.3): the active wakes of this
 * conversation, one chip each; only when none is active, the latest relevant terminal status
 * of this scope. Terminal statuses are never rendered under historical messages, so this is
 * the only place a wake status appears. Pure, so it is unit-tested without a DOM.
 */
import type { Alert, Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';
import { formatElapsed } from '../../../shared/elapsed.js';

/** What a chip says, beyond its raw `data-status`. */
export type ChipKind =
  'queued' | 'working' | 'beacon' | 'escalated' | 'checking' | 'replied' | 'received_idle' | 'failed';

export interface WakeChip {
  readonly wakeToken: string;
  /** The raw wake status, rendered as `data-status` (DESIGN.md "Status area"). */
  readonly status: Wake['status'];
  readonly kind: ChipKind;
  readonly agentName: string;
  /** Failure detail, present only for `failed`; shown only when the person expands it. */
  readonly detail: string | null;
  readonly active: boolean;
}

/** The chip kind of a wake: its status, refined by beacons and the escalation while working. */
export function chipKind(wake: Wake): ChipKind {
  switch (wake.status) {
    case 'queued':
      return 'queued';
    case 'delivered':
      if (wake.escalated) return 'escalated';
      return wake.beacons > 0 ? 'beacon' : 'working';
    case 'final_check_sent':
      return 'checking';
    case 'reply_sent':
      return 'replied';
    case 'completed_without_visible_reply':
      // contract §10.3: neutral — received and back to idle, never "did not answer".
      return 'received_idle';
    case 'failed':
      return 'failed';
  }
}

function toChip(wake: Wake): WakeChip {
  return {
    wakeToken: wake.wakeToken,
    status: wake.status,
    kind: chipKind(wake),
    agentName: wake.agentName,
    detail: wake.status === 'failed' ? wake.detail : null,
    active: !isTerminal(wake.status),
  };
}

const time = (iso: string | null): number => (iso === null ? 0 : Date.parse(iso) || 0);

/**
 * The chips for `target`: its active wakes (oldest first), else its latest terminal wake
 * (by end time), else none.
 */
export function statusChips(wakes: Iterable<Wake>, target: string): WakeChip[] {
  const mine = [...wakes].filter((w) => w.target === target);
  const active = mine
    .filter((w) => !isTerminal(w.status))
    .sort((a, b) => time(a.createdAt) - time(b.createdAt) || a.wakeToken.localeCompare(b.wakeToken));
  if (active.length > 0) return active.map(toChip);
  let latest: Wake | undefined;
  for (const w of mine) {
    if (latest === undefined || time(w.endedAt ?? w.createdAt) > time(latest.endedAt ?? latest.createdAt)) latest = w;
  }
  return latest === undefined ? [] : [toChip(latest)];
}

const CHIP_COPY: Record<ChipKind, CopyKey> = {
  queued: 'chip.queued',
  working: 'chip.working',
  beacon: 'chip.beacon',
  escalated: 'chip.escalated',
  checking: 'chip.checking',
  replied: 'chip.replied',
  received_idle: 'chip.receivedIdle',
  failed: 'chip.failed',
};

/**
 * Every chip's icon, in one place (issue 17): the icon leads the chip, before the agent's name,
 * whatever its state; colour is never the only signal (UI.md "Look").
 */
export const CHIP_ICONS: Readonly<Record<ChipKind, string>> = {
  queued: '◷',
  working: '◐',
  beacon: '🧠',
  escalated: '⚠️',
  checking: '◑',
  replied: '✓',
  received_idle: '○',
  failed: '!',
};

export const ALERT_ICONS: Readonly<Record<Alert['kind'], string>> = {
  delivery_failed: '⚑',
  delivery_uncertain: '⚑',
  escalation: '⚠️',
  no_response: '○',
  runtime_crashed: '⚑',
};

/** The chip's status text, without the agent name, icon or elapsed time. */
export function chipText(kind: ChipKind, language: Language): string {
  return copy(language, CHIP_COPY[kind]);
}

/**
 * Time since the wake started (issue 17: every chip, not only after a beacon): live while the
 * wake is active, frozen at its end once terminal.
 */
export function chipElapsed(wake: Pick<Wake, 'createdAt' | 'endedAt'>, language: Language, nowMs: number): string {
  const end = wake.endedAt === null ? nowMs : time(wake.endedAt);
  return formatElapsed(end - time(wake.createdAt), language);
}

/** Alert kinds a wake's own chip already words (escalated / received_idle). */
const SAID_BY_CHIP: ReadonlySet<Alert['kind']> = new Set(['escalation', 'no_response']);

/** Alerts the status area shows for `target`: those of its shown wakes, or raised since the latest shown status. */
export function statusAlerts(
  alerts: readonly Alert[],
  target: string,
  chips: readonly WakeChip[],
  wakes: ReadonlyMap<string, Wake>,
  dismissed: ReadonlySet<string>,
): Alert[] {
  const shown = new Set(chips.map((c) => c.wakeToken));
  const since = Math.max(0, ...chips.map((c) => time(wakes.get(c.wakeToken)?.createdAt ?? null)));
  return (
    alerts
      .filter((a) => !dismissed.has(a.id) && (a.target === target || (a.wakeToken !== null && shown.has(a.wakeToken))))
      // An escalation or a no-response of a wake whose chip is shown is already said by the chip
      // ("⚠️ Extended processing…", "Received — back to idle"): the status area says it once (UI.md).
      .filter((a) => !(SAID_BY_CHIP.has(a.kind) && a.wakeToken !== null && shown.has(a.wakeToken)))
      .filter((a) => (a.wakeToken !== null && shown.has(a.wakeToken)) || time(a.at) >= since)
      .slice(-3)
  );
}

const ALERT_COPY: Record<Alert['kind'], CopyKey> = {
  delivery_failed: 'alert.deliveryFailed',
  delivery_uncertain: 'alert.deliveryUncertain',
  escalation: 'alert.escalation',
  no_response: 'alert.noResponse',
  runtime_crashed: 'alert.runtimeCrashed',
};

/** Neutral copy for an alert, in the UI language (the daemon's own text is a fallback only). */
export function alertText(alert: Alert, language: Language): string {
  return alertKindText(alert.kind, language);
}

export function alertKindText(kind: Alert['kind'], language: Language): string {
  return copy(language, ALERT_COPY[kind]);
}

/**
 * The alert kind of an inspector timeline `alert` event, whose detail the daemon journals as
 * `<kind>: <message>`; null when the detail names no known kind.
 */
export function alertKindOfEvent(detail: string | null): Alert['kind'] | null {
  const kind = detail?.split(':', 1)[0] ?? '';
  return Object.hasOwn(ALERT_COPY, kind) ? (kind as Alert['kind']) : null;
}
