/**
 * issue 27: what each agent consumed and how close it is to its limits, as the daemon reports it:
 * `usage.summary` (the last 7 UTC days, the latest limit windows, the budgets). Fetched only while
 * something shows it (the Usage view, an agent's detail): `changed()` — at start, after each
 * reconnect and on each `usage.updated` (a wake's usage stored, a window announced, a budget
 * edited) — fetches at once when watched, otherwise marks the summary stale and the first
 * subscriber fetches it (issue 30: a busy team sends `usage.updated` per turn, and a summary
 * nobody looks at was fetched for each). Updates that arrive while a summary is being fetched are
 * coalesced into one more fetch, so the view ends on the daemon's latest totals.
 */
import type { ClientApi } from '../../../shared/api/contract.js';
import type { AgentDayUsage, LimitWindow, UsageSummary } from '../../../shared/usage.js';
import { KeyedStore, useStoreKey } from './keyed-store.js';

const KEY = 'summary';
const DAY_MS = 86_400_000;

/** The UTC days from `today` back `count - 1` days, oldest first (`YYYY-MM-DD`). */
export function lastDays(today: string, count: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** One agent's usage per day over `days`, a day it used nothing as zeros (so the chart has every day). */
export function agentDays(summary: UsageSummary, agentId: string, days: readonly string[]): AgentDayUsage[] {
  const byDay = new Map(summary.days.filter((d) => d.agentId === agentId).map((d) => [d.day, d]));
  const runtime = summary.days.find((d) => d.agentId === agentId)?.runtime ?? 'demo';
  return days.map(
    (day) =>
      byDay.get(day) ?? {
        agentId,
        runtime,
        day,
        wakes: 0,
        turns: 0,
        inputTokens: 0,
        outputTokens: 0,
        cachedTokens: 0,
        costUsd: null,
      },
  );
}

/** The sum of some days' usage; cost is null when no day reported one. */
export function sumDays(days: readonly AgentDayUsage[]): {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd: number | null;
  wakes: number;
} {
  let costUsd: number | null = null;
  for (const d of days) if (d.costUsd !== null) costUsd = (costUsd ?? 0) + d.costUsd;
  return {
    inputTokens: days.reduce((n, d) => n + d.inputTokens, 0),
    outputTokens: days.reduce((n, d) => n + d.outputTokens, 0),
    cachedTokens: days.reduce((n, d) => n + d.cachedTokens, 0),
    costUsd,
    wakes: days.reduce((n, d) => n + d.wakes, 0),
  };
}

/** An agent's latest limit windows, the shortest window first (the 5-hour before the weekly). */
export function agentLimits(summary: UsageSummary, agentId: string): LimitWindow[] {
  return summary.limits
    .filter((w) => w.agentId === agentId)
    .sort((a, b) => (a.windowMinutes ?? Infinity) - (b.windowMinutes ?? Infinity) || a.window.localeCompare(b.window));
}

/** What the view shows: the latest summary (null until the first answer) and why the last fetch failed. */
export interface UsageState {
  readonly summary: UsageSummary | null;
  readonly error: string | null;
}

export class UsageStore extends KeyedStore {
  private current: UsageState = { summary: null, error: null };
  private inFlight = false;
  private again = false;
  /** The daemon's usage changed since the last fetch (or none was made). */
  private stale = true;

  constructor(private readonly api: ClientApi) {
    super();
  }

  override subscribe(key: string, listener: () => void): () => void {
    const first = !this.watched(key);
    const stop = super.subscribe(key, listener);
    if (first && key === KEY && this.stale) void this.load();
    return stop;
  }

  /** The daemon's usage changed (or may have: start, reconnect): fetch now if shown, else when next shown. */
  changed(): void {
    this.stale = true;
    if (this.watched(KEY)) void this.load();
  }

  /** The latest summary (null until the first answer). */
  get summary(): UsageSummary | null {
    return this.current.summary;
  }

  /** Why the last fetch failed (null: it did not). */
  get error(): string | null {
    return this.current.error;
  }

  /** The summary and the error, one object until either changes. */
  get state(): UsageState {
    return this.current;
  }

  /** Fetches the summary; a call while one is in flight asks for one more fetch after it. */
  async load(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    try {
      do {
        this.again = false;
        this.stale = false;
        const r = await this.api.usage.summary({});
        this.current = r.ok ? { summary: r.value, error: null } : { summary: this.current.summary, error: r.message };
        // A failed fetch is tried again when the view is next shown.
        if (!r.ok) this.stale = true;
        this.notify(KEY);
      } while (this.again);
    } finally {
      this.inFlight = false;
    }
  }
}

/** The usage summary (null while loading) and the last error; re-renders when either changes. */
export function useUsage(store: UsageStore): UsageState {
  return useStoreKey(store, KEY, () => store.state);
}
