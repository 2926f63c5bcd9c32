/**
 * Which chips the one status area shows (UI.md; contract §10.3; issue 24): for the latest round
 * of this conversation, one chip per addressed agent — its active wakes, else its latest terminal
 * outcome — so an outcome is never hidden because another agent is still working; and an agent's
 * `failed` outcome stays until a later wake of that agent here ends or the person dismisses it.
 * Terminal statuses are never rendered under historical messages, so this is the only place a
 * wake status appears. Pure, so it is unit-tested without a DOM.
 */
import type { Alert, Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';
import { formatElapsed } from '../../../shared/elapsed.js';
import { LOCAL_CHANNEL } from '../../../shared/config.js';
import { channelName } from './channel-name.js';

/** What a chip says, beyond its raw `data-status`. */
export type ChipKind =
  'queued' | 'working' | 'beacon' | 'escalated' | 'checking' | 'replied' | 'received_idle' | 'failed' | 'paused';

export interface WakeChip {
  readonly wakeToken: string;
  /** The raw wake status, rendered as `data-status` (DESIGN.md "Status area"). */
  readonly status: Wake['status'];
  readonly kind: ChipKind;
  readonly agentName: string;
  /** issue 29: whose turn the chip stands for (its Stop ends that agent's working turn). */
  readonly agentId: string;
  /** issue 29: a `failed` chip the operator stopped (UI.md "Stopped · Details"). */
  readonly stopped: boolean;
  /** Failure detail, present only for `failed`; shown only when the person expands it. */
  readonly detail: string | null;
  readonly active: boolean;
  /** issue 24: a `failed` wake whose work a recovery continuation re-delivered in a new wake (§6.6). */
  readonly continued: boolean;
  /** issue 25: the agent whose message woke this one ("asked by Claude"), null when the operator's or a hand-back did. */
  readonly askedByName: string | null;
  /**
   * issue 40 item 7: the agent whose answer was handed back to this one (a `hand_back` wake, §9.1
   * workflow callback): that agent asked nothing, so the chip says "after Helper's answer", never "asked by".
   */
  readonly answerFromName: string | null;
  /** issue 40 item 7: the silence beacons of this wake so far (watchdog spec A), shown as a count while it works. */
  readonly beacons: number;
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
    case 'paused':
      return 'paused';
  }
}

function toChip(wake: Wake): WakeChip {
  return {
    wakeToken: wake.wakeToken,
    status: wake.status,
    kind: chipKind(wake),
    agentName: wake.agentName,
    agentId: wake.agentId,
    stopped: wake.status === 'failed' && wake.reason === 'stopped_by_operator',
    detail: wake.status === 'failed' ? wake.detail : null,
    active: !isTerminal(wake.status),
    continued: wake.status === 'failed' && wake.recoveries > 0,
    askedByName: wake.cause === 'hand_back' ? null : askedBy(wake),
    answerFromName: wake.cause === 'hand_back' ? askedBy(wake) : null,
    beacons: wake.beacons,
  };
}

/** issue 25: who asked for a wake — the agent that mentioned it, or whose reply it hands back; null: the operator. */
export function askedBy(wake: Pick<Wake, 'askedByName' | 'askedById'>): string | null {
  return wake.askedByName ?? wake.askedById ?? null;
}

const time = (iso: string | null): number => (iso === null ? 0 : Date.parse(iso) || 0);

/**
 * A wake created within this long after the round's work last ended still belongs to the round:
 * an agent woken by another agent's reply is created just after that reply ends its wake.
 */
export const ROUND_GAP_MS = 2_000;

const byCreation = (a: Wake, b: Wake): number =>
  time(a.createdAt) - time(b.createdAt) ||
  time(a.endedAt ?? a.createdAt) - time(b.endedAt ?? b.createdAt) ||
  a.wakeToken.localeCompare(b.wakeToken);

/**
 * The latest round of a scope: the last run of overlapping work. Walking the scope's wakes by
 * creation time, a wake starts a new round when it is created more than `ROUND_GAP_MS` after
 * every earlier wake of the scope has ended and it belongs to none of the round's chains (issue
 * 25); otherwise (created while an earlier wake was still active, just after it ended, or woken
 * by an agent of the same chain however late) it joins the current round. So the wakes of one
 * operator message, of messages sent while agents still work, and of agents woken by agents are
 * one round; a message sent after all work ended starts the next. Returned oldest first.
 */
export function latestRound(wakes: readonly Wake[]): Wake[] {
  const sorted = [...wakes].sort(byCreation);
  let start = 0;
  let reach = -Infinity;
  let chains = new Set<string>();
  sorted.forEach((w, i) => {
    const chain = w.chainId ?? null;
    const sameChain = chain !== null && chains.has(chain);
    if (time(w.createdAt) > reach + ROUND_GAP_MS && !sameChain) {
      start = i;
      chains = new Set();
    }
    if (chain !== null) chains.add(chain);
    reach = Math.max(reach, w.endedAt === null ? Infinity : time(w.endedAt));
  });
  return sorted.slice(start);
}

/**
 * The chips for `target`, oldest first:
 * - the latest round (see `latestRound`), per agent: its active wakes, one chip each; when it has
 *   none, its newest wake of the round (the latest terminal outcome);
 * - beside them, each agent's latest ended wake of this scope when that is `failed` and the person
 *   has not dismissed it (`dismissed` holds wake tokens): a failure stays on screen until a later
 *   wake of that agent here ends, whichever round it was in.
 */
export function statusChips(
  wakes: Iterable<Wake>,
  target: string,
  dismissed: ReadonlySet<string> = new Set(),
): WakeChip[] {
  const mine = [...wakes].filter((w) => w.target === target);
  const shown = new Map<string, Wake>();
  const perAgent = new Map<string, Wake[]>();
  for (const w of latestRound(mine)) perAgent.set(w.agentId, [...(perAgent.get(w.agentId) ?? []), w]);
  for (const agentWakes of perAgent.values()) {
    const active = agentWakes.filter((w) => !isTerminal(w.status));
    const newest = agentWakes[agentWakes.length - 1];
    for (const w of active.length > 0 ? active : newest === undefined ? [] : [newest]) shown.set(w.wakeToken, w);
  }
  const lastEnded = new Map<string, Wake>();
  for (const w of mine) {
    if (w.endedAt === null || !isTerminal(w.status)) continue;
    const prev = lastEnded.get(w.agentId);
    if (prev === undefined || time(w.endedAt) > time(prev.endedAt)) lastEnded.set(w.agentId, w);
  }
  for (const w of lastEnded.values()) if (w.status === 'failed') shown.set(w.wakeToken, w);
  return [...shown.values()]
    .filter((w) => !(w.status === 'failed' && dismissed.has(w.wakeToken)))
    .sort(byCreation)
    .map(toChip);
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
  paused: 'chip.paused',
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
  paused: '⏸',
};

export const ALERT_ICONS: Readonly<Record<Alert['kind'], string>> = {
  delivery_failed: '⚑',
  delivery_uncertain: '⚑',
  escalation: '⚠️',
  no_response: '○',
  runtime_crashed: '⚑',
  usage_warning: '◔',
};

/**
 * issue 24: the channel's own silence-watchdog words (`message` / `escalationMessage`), as the
 * person wrote them; null where the schema's default stands, which is said in the UI language.
 */
export interface BeaconWords {
  readonly beacon: string | null;
  readonly escalation: string | null;
}

export const DEFAULT_BEACON_WORDS: BeaconWords = { beacon: null, escalation: null };

/** What a chip's words depend on besides its kind: the channel's own beacon words, a continued failure. */
export interface ChipTextOptions {
  readonly words?: BeaconWords;
  /** A failure that a recovery continued says so (issue 24: never a bare "couldn't complete"). */
  readonly continued?: boolean;
  /** issue 29: a failure the operator stopped reads "Stopped". */
  readonly stopped?: boolean;
}

/** The chip's status text, without the agent name, icon or elapsed time. */
export function chipText(kind: ChipKind, language: Language, options: ChipTextOptions = {}): string {
  if (kind === 'failed' && options.stopped === true) return copy(language, 'chip.stopped');
  if (kind === 'failed' && options.continued === true) return copy(language, 'chip.failedContinued');
  const words = options.words ?? DEFAULT_BEACON_WORDS;
  const own = kind === 'beacon' ? words.beacon : kind === 'escalated' ? words.escalation : null;
  return own === null ? copy(language, CHIP_COPY[kind]) : withoutIcon(own, CHIP_ICONS[kind]);
}

/** A wake's chip words as they stand (its kind, "Stopped", "continued"), for lists that show a wake's outcome. */
export function wakeChipText(wake: Wake, language: Language): string {
  return chipText(chipKind(wake), language, {
    continued: wake.status === 'failed' && wake.recoveries > 0,
    stopped: wake.status === 'failed' && wake.reason === 'stopped_by_operator',
  });
}

/** A person's text that starts with the chip's own icon (the default "🧠 Working…" does) says it once. */
function withoutIcon(text: string, icon: string): string {
  const bare = icon.replace(/\uFE0F/g, '');
  const start = text.trimStart();
  if (!start.startsWith(bare)) return text;
  const rest = start.slice(bare.length).replace(/^\uFE0F?\s*/, '');
  return rest === '' ? text : rest;
}

/**
 * issue 40 item 7: how many beacons a working chip has had ("2 beacons"), null when none or when
 * the turn has ended (the count then lives in the inspector's timeline).
 */
export function chipBeacons(chip: Pick<WakeChip, 'beacons' | 'active'>, language: Language): string | null {
  if (!chip.active || chip.beacons <= 0) return null;
  return chip.beacons === 1
    ? copy(language, 'chip.beaconsOne')
    : copy(language, 'chip.beacons', { count: chip.beacons });
}

/** issue 29 (UI.md "Every working chip has Stop"): the chips of a turn still running. */
const WORKING_KINDS: ReadonlySet<ChipKind> = new Set(['working', 'beacon', 'escalated', 'checking']);

export function chipCanStop(kind: ChipKind): boolean {
  return WORKING_KINDS.has(kind);
}

/**
 * Time since the wake started (issue 17: every chip, not only after a beacon): live while the
 * wake is active, frozen at its end once terminal.
 */
export function chipElapsed(wake: Pick<Wake, 'createdAt' | 'endedAt'>, language: Language, nowMs: number): string {
  const end = wake.endedAt === null ? nowMs : time(wake.endedAt);
  return formatElapsed(end - time(wake.createdAt), language);
}

/**
 * Alert kinds a wake's own chip already words (the escalated chip). Not the no-response alert
 * (issue 24, watchdog spec B): it is the turn's own status line — "Turn ended without a
 * message" — shown beside the wake's neutral "Received — back to idle" chip, never hidden by it.
 */
const SAID_BY_CHIP: ReadonlySet<Alert['kind']> = new Set(['escalation']);

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
      // An escalation of a wake whose chip is shown is already said by the chip
      // ("⚠️ Extended processing…"): the status area says it once (UI.md).
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
  usage_warning: 'alert.usageWarning',
};

/** Neutral copy for an alert, in the UI language (the daemon's own text is a fallback only); an escalation in the channel's own words. */
export function alertText(alert: Alert, language: Language, words: BeaconWords = DEFAULT_BEACON_WORDS): string {
  if (alert.kind === 'escalation' && words.escalation !== null) return words.escalation;
  // issue 40 item 7: a delivery failure on another channel than this app names it ("Not delivered to Telegram").
  const channel = alert.channel;
  if (channel !== undefined && channel !== LOCAL_CHANNEL) {
    if (alert.kind === 'delivery_failed')
      return copy(language, 'alert.deliveryFailedOn', { channel: channelName(channel, language) });
    if (alert.kind === 'delivery_uncertain')
      return copy(language, 'alert.deliveryUncertainOn', { channel: channelName(channel, language) });
  }
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

/**
 * issue 27: a paused chip's words — "Paused until 14:05 · usage limit", "Paused · daily budget
 * reached" — from the wake's pause reason and its `pausedUntil` (the daemon's stored reset), the
 * time in the reader's clock.
 */
export function pausedText(wake: Pick<Wake, 'reason' | 'pausedUntil'>, language: Language): string {
  const kind =
    wake.reason === 'daily_budget' || wake.reason === 'waiting_for_memory' || wake.reason === 'waiting_for_start'
      ? wake.reason
      : 'usage_limit';
  return `${pausedHead(wake, language)} · ${copy(language, `chip.pause.${kind}`)}`;
}

const resetOf = (wake: Pick<Wake, 'pausedUntil'>): number =>
  wake.pausedUntil == null ? Number.NaN : Date.parse(wake.pausedUntil);

/**
 * "Paused until 14:05" (the reset in the reader's clock), or "Paused" when the reset is unknown: the
 * chip's head, and issue 40 item 8's words for the agent in the sidebar.
 */
export function pausedHead(wake: Pick<Wake, 'pausedUntil'>, language: Language): string {
  const ms = resetOf(wake);
  if (!Number.isFinite(ms)) return copy(language, 'chip.paused');
  const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(ms),
  );
  return copy(language, 'chip.pausedUntil', { time });
}

/**
 * issue 40 item 8: the paused chip's countdown to its reset ("4m 30s left"), driven by the pause's
 * `pausedUntil`; "resuming" once the reset is reached; null when the reset is unknown.
 */
export function pauseCountdown(wake: Pick<Wake, 'pausedUntil'>, language: Language, nowMs: number): string | null {
  const ms = resetOf(wake);
  if (!Number.isFinite(ms)) return null;
  return ms <= nowMs
    ? copy(language, 'chip.pauseResuming')
    : copy(language, 'chip.pauseLeft', { time: formatElapsed(ms - nowMs, language) });
}
