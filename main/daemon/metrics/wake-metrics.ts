/**
 * The four wake counters of contract §10.2 on a given prom-client `Registry` (never the
 * default global one). Labels are bounded: runtime type and no-reply reason only; an agent id
 * is never a label (§10.1: high-cardinality analysis uses events, not metrics).
 */
import { Counter, type Registry } from 'prom-client';
import { NO_REPLY_REASONS, RUNTIMES, type RuntimeKind } from '../../../shared/wake-status.js';

export interface WakeMetrics {
  received(runtime: RuntimeKind): void;
  replySent(runtime: RuntimeKind): void;
  completedWithoutVisibleReply(runtime: RuntimeKind, reason: string): void;
  failed(runtime: RuntimeKind): void;
}

/** One label set's count, a plain number on the hot path (issue 19). */
interface Tally {
  readonly labels: Record<string, string>;
  n: number;
}

/** The tallies behind each counter this module registered, so a second caller on one registry shares them. */
const talliesOf = new WeakMap<object, Map<string, Tally>>();

/**
 * A counter whose values live in plain numbers and reach prom-client only when the registry is
 * read (`collect`, at scrape time). issue 19: `labels(…).inc()` hashes the label object on every
 * call (prom-client's `inc` → `hashObject`); per wake transition that was a visible share of the
 * lifecycle's time in the `wake` benchmark's profile.
 */
function tallied(registry: Registry, name: string, help: string, labelNames: readonly string[]): Map<string, Tally> {
  // Both composition roots may build on one registry; reuse a counter already registered there.
  const existing = registry.getSingleMetric(name);
  if (existing !== undefined) {
    const known = talliesOf.get(existing);
    if (known === undefined) throw new Error(`internal: metric ${name} was registered outside wake-metrics.ts`);
    return known;
  }
  const tallies = new Map<string, Tally>();
  const counter = new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const t of tallies.values()) this.inc(t.labels, t.n);
    },
  });
  talliesOf.set(counter, tallies);
  return tallies;
}

/**
 * issue 41: every known label set has a series from the start, at 0. A series that appears only
 * with its first event makes `increase(wake_failed_total[10m]) > 0` miss that first event (there
 * is no earlier sample to increase from).
 */
function seed(tallies: Map<string, Tally>, key: string, labels: Record<string, string>): void {
  if (!tallies.has(key)) tallies.set(key, { labels, n: 0 });
}

function seedRuntimes(tallies: Map<string, Tally>): Map<string, Tally> {
  for (const runtime of RUNTIMES) seed(tallies, runtime, { runtime });
  return tallies;
}

/** One runtime's tally (issue 19: labels are built on first use only, no closure per call). */
function countRuntime(tallies: Map<string, Tally>, runtime: RuntimeKind): void {
  const t = tallies.get(runtime);
  if (t !== undefined) t.n += 1;
  else tallies.set(runtime, { labels: { runtime }, n: 1 });
}

/**
 * The (runtime, reason) counter: tallies looked up runtime → reason, so a call concatenates no
 * key string (a fresh cons string that Map.get must flatten and hash every time, issue 19).
 */
function byRuntimeAndReason(tallies: Map<string, Tally>): (runtime: RuntimeKind, reason: string) => void {
  const index = new Map<string, Map<string, Tally>>();
  return (runtime, reason) => {
    let byReason = index.get(runtime);
    if (byReason === undefined) index.set(runtime, (byReason = new Map()));
    const t = byReason.get(reason);
    if (t !== undefined) {
      t.n += 1;
      return;
    }
    // Another caller on the same registry may have counted this label set already (shared tallies).
    const key = runtime + '\u0000' + reason;
    const shared = tallies.get(key) ?? { labels: { runtime, reason }, n: 0 };
    tallies.set(key, shared);
    byReason.set(reason, shared);
    shared.n += 1;
  };
}

export function createWakeMetrics(registry: Registry): WakeMetrics {
  const received = seedRuntimes(tallied(registry, 'wake_received_total', 'Wakes received by the daemon.', ['runtime']));
  const replySent = seedRuntimes(
    tallied(registry, 'wake_reply_sent_total', 'Wakes that ended with a confirmed visible reply.', ['runtime']),
  );
  const noReply = tallied(
    registry,
    'wake_completed_without_visible_reply_total',
    'Wakes that ended without a visible reply.',
    ['runtime', 'reason'],
  );
  for (const runtime of RUNTIMES)
    for (const reason of NO_REPLY_REASONS) seed(noReply, runtime + '\u0000' + reason, { runtime, reason });
  const failed = seedRuntimes(tallied(registry, 'wake_failed_total', 'Wakes that ended failed.', ['runtime']));
  return {
    received: (runtime) => countRuntime(received, runtime),
    replySent: (runtime) => countRuntime(replySent, runtime),
    completedWithoutVisibleReply: byRuntimeAndReason(noReply),
    failed: (runtime) => countRuntime(failed, runtime),
  };
}
