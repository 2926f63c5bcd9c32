/**
 * `npm run bench -- watchdog`: 10,000 concurrent turns and 1,000,000 runtime events (10 %
 * operator-visible `message.delivered`, 90 % runtime-local tool calls / local text / errors)
 * through the hook bus and the silence watchdog, against a raw `Map` + `setTimeout` baseline that
 * does the same work (per-turn state, reset the timer on every operator-visible event, ignore the
 * rest) in the same process run.
 *
 * value = events/s of bus + watchdog; baseline = events/s of the raw version; ratio = value/baseline
 * (higher is better; goal ≥ 0.5). Also heap bytes per active turn for both (goal ≤ 1,024), measured
 * as `heapUsed` after two `gc()` with every turn started, minus before. Rounds alternate the two
 * variants; medians are reported. Args: `--turns N --events N --rounds N [--naive]`.
 */
import { Subject, asyncScheduler, filter, groupBy, mergeMap, switchMap, timer } from 'rxjs';
import { SilenceWatchdogSchema } from '../shared/config.js';
import { HookBus } from '../main/daemon/bus/hook-bus.js';
import type { MessageDeliveredEvent, RuntimeLocalEvent, TurnStartEvent } from '../main/daemon/bus/hook-events.js';
import { silenceWatchdog } from '../main/daemon/watchdog/silence-watchdog.js';
import type { Figure } from './bench-kit.js';

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

const gc = (globalThis as { gc?: () => void }).gc;
function heapUsed(): number {
  if (gc === undefined) throw new Error('run with --expose-gc (npm run bench does)');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Plan {
  readonly starts: TurnStartEvent[];
  readonly visible: MessageDeliveredEvent[];
  readonly local: RuntimeLocalEvent[][];
  readonly turnOf: Int32Array;
  /** 0 = operator-visible, 1..3 = runtime-local kind. */
  readonly kindOf: Uint8Array;
}

/** The same seeded event sequence for every variant and round. */
function plan(turns: number, events: number): Plan {
  let seed = 0x2545f491;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const starts: TurnStartEvent[] = [];
  const visible: MessageDeliveredEvent[] = [];
  const local: RuntimeLocalEvent[][] = [];
  for (let i = 0; i < turns; i++) {
    const turnId = `turn-${i}`;
    const agentId = `agent-${i % 50}`;
    starts.push({ turnId, agentId, channel: 'local', wakeTokens: [`wake-${i}`] });
    visible.push({ turnId, agentId, channel: 'local', target: '#general', messageId: `m-${i}`, kind: 'message' });
    local.push([
      { turnId, kind: 'tool_call', tool: 'bash' },
      { turnId, kind: 'local_text', bytes: 120, runes: 118 },
      { turnId, kind: 'error', code: 'tool_failed' },
    ]);
  }
  const turnOf = new Int32Array(events);
  const kindOf = new Uint8Array(events);
  for (let k = 0; k < events; k++) {
    turnOf[k] = Math.floor(next() * turns);
    kindOf[k] = next() < 0.1 ? 0 : 1 + Math.floor(next() * 3);
  }
  return { starts, visible, local, turnOf, kindOf };
}

interface Measure {
  eventsPerSecond: number;
  bytesPerTurn: number;
}

function runWatchdog(p: Plan, threshold: number): Measure {
  const bus = new HookBus();
  const config = SilenceWatchdogSchema.parse({ thresholdSeconds: threshold });
  let beacons = 0;
  const subscription = silenceWatchdog({ bus, settingsFor: () => config, scheduler: asyncScheduler }).subscribe(
    () => beacons++,
  );
  const before = heapUsed();
  for (const s of p.starts) bus.emit('turn.start', s);
  const bytesPerTurn = (heapUsed() - before) / p.starts.length;
  const { turnOf, kindOf, visible, local } = p;
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < turnOf.length; k++) {
    const kind = kindOf[k]!;
    const turn = turnOf[k]!;
    if (kind === 0) bus.emit('message.delivered', visible[turn]!);
    else bus.emit('runtime.local', local[turn]![kind - 1]!);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (beacons !== 0) throw new Error('watchdog bench: unexpected beacon');
  for (const s of p.starts) bus.emit('turn.end', { turnId: s.turnId });
  subscription.unsubscribe();
  return { eventsPerSecond: turnOf.length / seconds, bytesPerTurn };
}

/** The raw baseline: a Map of per-turn state and one `setTimeout` per turn, reset on visible events. */
function runRaw(p: Plan, threshold: number): Measure {
  interface RawTurn {
    readonly start: TurnStartEvent;
    timer: ReturnType<typeof setTimeout>;
    beacons: number;
  }
  const turns = new Map<string, RawTurn>();
  const ms = threshold * 1000;
  let beacons = 0;
  const fire = (t: RawTurn) => {
    t.beacons++;
    beacons++;
  };
  const onEvent = (name: 'message.delivered' | 'runtime.local', e: MessageDeliveredEvent | RuntimeLocalEvent) => {
    if (name !== 'message.delivered') return;
    const t = turns.get(e.turnId!);
    if (t === undefined) return;
    clearTimeout(t.timer);
    t.timer = setTimeout(fire, ms, t);
  };
  const before = heapUsed();
  for (const s of p.starts) {
    const t: RawTurn = { start: s, timer: undefined as unknown as ReturnType<typeof setTimeout>, beacons: 0 };
    t.timer = setTimeout(fire, ms, t);
    turns.set(s.turnId, t);
  }
  const bytesPerTurn = (heapUsed() - before) / p.starts.length;
  const { turnOf, kindOf, visible, local } = p;
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < turnOf.length; k++) {
    const kind = kindOf[k]!;
    const turn = turnOf[k]!;
    if (kind === 0) onEvent('message.delivered', visible[turn]!);
    else onEvent('runtime.local', local[turn]![kind - 1]!);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (turns.size !== p.starts.length || beacons !== 0) throw new Error('raw bench: unexpected state');
  for (const t of turns.values()) clearTimeout(t.timer);
  turns.clear();
  return { eventsPerSecond: turnOf.length / seconds, bytesPerTurn };
}

/**
 * For reference only (`--naive`): the per-event `groupBy + switchMap(() => timer())` shape the
 * watchdog deliberately avoids (research/reliability-perf.md §3a measured ~1/55 of raw).
 */
function runNaive(p: Plan, threshold: number): Measure {
  const delivered = new Subject<MessageDeliveredEvent | TurnStartEvent>();
  let beacons = 0;
  const sub = delivered
    .pipe(
      groupBy((e) => e.turnId!),
      mergeMap((g) => g.pipe(switchMap(() => timer(threshold * 1000)))),
      filter(() => true),
    )
    .subscribe(() => beacons++);
  const before = heapUsed();
  for (const s of p.starts) delivered.next(s);
  const bytesPerTurn = (heapUsed() - before) / p.starts.length;
  const { turnOf, kindOf, visible } = p;
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < turnOf.length; k++) if (kindOf[k] === 0) delivered.next(visible[turnOf[k]!]!);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  sub.unsubscribe();
  if (beacons !== 0) throw new Error('naive bench: unexpected beacon');
  return { eventsPerSecond: turnOf.length / seconds, bytesPerTurn };
}

export default async function watchdogBench(args: string[]) {
  // --quick (or BENCH_QUICK=1): small sizes, the CI smoke run (issue 19).
  const quick = args.includes('--quick') || process.env.BENCH_QUICK === '1';
  const turns = arg(args, 'turns', quick ? 1_000 : 10_000);
  const events = arg(args, 'events', quick ? 100_000 : 1_000_000);
  const rounds = arg(args, 'rounds', quick ? 2 : 5);
  const threshold = 45;
  const p = plan(turns, events);
  const visibleShare = p.kindOf.reduce((n, k) => n + (k === 0 ? 1 : 0), 0) / events;
  // Warm both code paths once (JIT), untimed.
  runWatchdog(plan(1000, 100_000), threshold);
  runRaw(plan(1000, 100_000), threshold);
  const ours: Measure[] = [];
  const raw: Measure[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      ours.push(runWatchdog(p, threshold));
      raw.push(runRaw(p, threshold));
    } else {
      raw.push(runRaw(p, threshold));
      ours.push(runWatchdog(p, threshold));
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  const value = median(ours.map((m) => m.eventsPerSecond));
  const baseline = median(raw.map((m) => m.eventsPerSecond));
  const ratios = ours.map((m, i) => m.eventsPerSecond / raw[i]!.eventsPerSecond);
  const bytesPerTurn = median(ours.map((m) => m.bytesPerTurn));
  const baselineBytesPerTurn = median(raw.map((m) => m.bytesPerTurn));
  let naive: Measure | null = null;
  if (args.includes('--naive')) {
    naive = runNaive(p, threshold);
    console.log(
      `naive switchMap(timer) (reference, not shipped): ${Math.round(naive.eventsPerSecond).toLocaleString('en')} events/s, ${Math.round(naive.bytesPerTurn)} B/turn`,
    );
  }
  console.log(
    `turns ${turns}, events ${events} (${(visibleShare * 100).toFixed(1)} % operator-visible), rounds ${rounds}`,
  );
  console.log(`bus+watchdog: ${Math.round(value).toLocaleString('en')} events/s, ${Math.round(bytesPerTurn)} B/turn`);
  console.log(
    `raw Map+setTimeout: ${Math.round(baseline).toLocaleString('en')} events/s, ${Math.round(baselineBytesPerTurn)} B/turn`,
  );
  return {
    value: Math.round(value),
    baseline: Math.round(baseline),
    ratio: Number((value / baseline).toFixed(3)),
    unit: 'events/s',
    ratioMin: Number(Math.min(...ratios).toFixed(3)),
    ratioMax: Number(Math.max(...ratios).toFixed(3)),
    bytesPerTurn: Math.round(bytesPerTurn),
    baselineBytesPerTurn: Math.round(baselineBytesPerTurn),
    turns,
    events,
    visibleShare: Number(visibleShare.toFixed(4)),
    rounds,
    goal: 'ratio ≥ 0.5; ≤ 1,024 B per active turn',
    figures: [
      {
        name: 'hook bus + silence watchdog events/s vs raw Map + setTimeout',
        value: Math.round(value),
        unit: 'events/s',
        baseline: Math.round(baseline),
        ratio: Number((value / baseline).toFixed(3)),
        goal: 'ratio ≥ 0.5',
        met: value / baseline >= 0.5,
        note: `ratio over rounds ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}; ${turns} turns, ${events} events`,
      },
      {
        name: 'heap per active turn',
        value: Math.round(bytesPerTurn),
        unit: 'B',
        baseline: Math.round(baselineBytesPerTurn),
        goal: '≤ 1,024 B',
        met: bytesPerTurn <= 1024,
      },
    ] satisfies Figure[],
    ...(naive === null
      ? {}
      : { naiveEventsPerSecond: Math.round(naive.eventsPerSecond), naiveBytesPerTurn: Math.round(naive.bytesPerTurn) }),
  };
}
