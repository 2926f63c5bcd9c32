/**
 * issue 27: the usage-pause service over the real store (SQLite, migration 13) and the real wake
 * lifecycle, on virtual time: a usage limit pauses the agent's wakes in their place and later wakes
 * wait behind them; the reset (the CLI's signal, retry-after, else the backoff) delivers them again
 * once; Try now, Cancel, `"fail"`; a daemon restart during a pause re-arms it; a daily budget
 * reached holds new wakes until the port says not reached (and its event).
 */
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DAEMON_LIMITS } from '../../../../../shared/config.js';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import { usageLimitResetAt } from '../../../../../main/daemon/runtime/failure-classifier.js';
import {
  UsagePauseService,
  probeDelayMs,
  type UsageBudget,
  type UsagePausePolicy,
} from '../../../../../main/daemon/usage/usage-pause-service.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { WakeLifecycle, type WakeDelivery } from '../../../../../main/daemon/wake/index.js';
import type { WakeStatusEvent } from '../../../../../main/daemon/wake/wake-status-event.js';
import { StepScheduler } from '../../../../fixtures/virtual-time.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

let dirs: TempDir[] = [];
afterEach(() => {
  for (const d of dirs) d.remove();
  dirs = [];
});

interface Daemon {
  readonly store: Store;
  readonly lifecycle: WakeLifecycle;
  readonly service: UsagePauseService;
  readonly scheduler: StepScheduler;
  readonly deliveries: WakeDelivery[];
  readonly statuses: WakeStatusEvent[];
}

function daemon(
  dir: string,
  policy: UsagePausePolicy = { onUsageLimit: 'wait', usageLimitBackoffSeconds: 60 },
  budget?: () => UsageBudget,
  scheduler = new StepScheduler(),
  announcedReset?: (agentId: string, nowMs: number) => number | null,
): Daemon {
  const store = Store.open(dir);
  const service: { current: UsagePauseService | null } = { current: null };
  const lifecycle = new WakeLifecycle({
    journal: store,
    metrics: createWakeMetrics(new Registry()),
    renderFinalCheck: () => 'FINAL CHECK',
    now: () => scheduler.now(),
    admissionHold: (agentId) => (service.current as UsagePauseService).admissionHold(agentId),
    pendingCapacity: DEFAULT_DAEMON_LIMITS.pendingCapacity,
  });
  lifecycle.registerAgent({ agentId: 'a1', publicName: 'a1', displayName: 'A1', runtime: 'claude-code', model: null });
  service.current = new UsagePauseService({
    lifecycle,
    pauses: store.pauses,
    policyOf: () => policy,
    ...(budget === undefined ? {} : { usageBudget: () => budget() }),
    ...(announcedReset === undefined ? {} : { announcedReset }),
    scheduler,
  });
  const deliveries: WakeDelivery[] = [];
  const statuses: WakeStatusEvent[] = [];
  lifecycle.deliveries$.subscribe((d) => deliveries.push(d));
  lifecycle.wakeStatus$.subscribe((e) => statuses.push(e));
  return { store, lifecycle, service: service.current, scheduler, deliveries, statuses };
}

function post(d: Daemon, n: number): string {
  const wakeToken = `w${n}`;
  d.lifecycle.enqueue('a1', {
    wakeToken,
    messageId: `m${n}`,
    target: '#general',
    targetSeq: n,
    deliveryClass: 'visible_reply',
  });
  return wakeToken;
}

const delivered = (d: Daemon): string[] => d.deliveries.flatMap((x) => x.wakes.map((w) => w.wakeToken));
const statusesOf = (d: Daemon, token: string): string[] =>
  d.statuses.filter((s) => s.wakeToken === token).map((s) => s.status);

function tmp(): string {
  const t = makeTempDir('agentteam-pause-');
  dirs.push(t);
  return t.path;
}

describe('usageLimitResetAt: the reset the runtime surfaced', () => {
  const now = Date.parse('2026-12-02T14:00:00Z');
  it.each([
    ['HTTP 429 retry-after: 30', now + 30_000],
    ['{"retry-after-ms":"1500"}', now + 1500],
    ['Rate limit reached. Please try again in 20s.', now + 20_000],
    ['usage limit; try again in 5 minutes', now + 300_000],
    ['Claude AI usage limit reached|1796220300', 1796220300_000],
    ['usageLimitExceeded resets_in_seconds: 90', now + 90_000],
    ['limit "resetsAt": 1796220300', 1796220300_000],
    ['limit resets at 2026-12-02T14:05:00Z', Date.parse('2026-12-02T14:05:00Z')],
    ['API Error: Request rejected (429) · rate limited', null],
    ['', null],
  ])('%s → %s', (detail, expected) => {
    expect(usageLimitResetAt(detail, now)).toBe(expected);
  });
});

describe('UsagePauseService', () => {
  it('pauses in place, later wakes wait behind, the reset delivers them again once in order', () => {
    const d = daemon(tmp());
    const w1 = post(d, 1);
    d.lifecycle.onDelivered('a1', 0, [w1]);
    expect(d.service.onUsageLimit('a1', 0, 'HTTP 429 retry-after: 2')).toBe(true);
    const w2 = post(d, 2);
    expect(delivered(d)).toEqual([w1]);
    expect(statusesOf(d, w1)).toEqual(['queued', 'delivered', 'paused']);
    const paused = d.statuses.find((s) => s.status === 'paused') as WakeStatusEvent;
    expect(paused.reason).toBe('usage_limit');
    expect(paused.detail).toContain(`until ${new Date(2000).toISOString()}`);
    expect(d.store.getWake(w1)?.status).toBe('paused');
    expect(d.store.pauses.get('a1')?.resetsAt).toBe(2000);
    expect(d.scheduler.step()).toBe(true);
    expect(d.scheduler.now()).toBe(2000);
    // Delivered again once, the paused one first; the later wake behind it (capacity permitting).
    expect(delivered(d)).toEqual([w1, w1, w2]);
    expect(d.store.pauses.get('a1')).toBeUndefined();
    expect(d.lifecycle.pauseOf('a1')).toBeNull();
    d.lifecycle.onDelivered('a1', 0, [w1, w2]);
    d.lifecycle.onSendResult({ agentId: 'a1', status: 'sent', targetKey: '#general' as never, seenUpToSeq: 2 });
    // issue 38: the reset puts it back in the queue (`queued`), then it is delivered once more.
    expect(statusesOf(d, w1)).toEqual(['queued', 'delivered', 'paused', 'queued', 'delivered', 'reply_sent']);
    expect(d.store.getWake(w1)?.status).toBe('reply_sent');
  });

  it('issue 38: the reset the runtime announced structured wins over anything in the failure detail', () => {
    const asked: Array<[string, number]> = [];
    const d = daemon(tmp(), undefined, undefined, new StepScheduler(), (agentId, nowMs) => {
      asked.push([agentId, nowMs]);
      return 9_000;
    });
    const w1 = post(d, 1);
    d.lifecycle.onDelivered('a1', 0, [w1]);
    expect(d.service.onUsageLimit('a1', 0, 'HTTP 429 retry-after: 2')).toBe(true);
    expect(asked).toEqual([['a1', 0]]);
    expect(d.lifecycle.pauseOf('a1')?.resetsAt).toBe(9_000);
    expect(d.store.pauses.get('a1')?.resetsAt).toBe(9_000);
  });

  it('uses the configured backoff when the runtime named no reset', () => {
    const d = daemon(tmp(), { onUsageLimit: 'wait', usageLimitBackoffSeconds: 7 });
    const w1 = post(d, 1);
    d.lifecycle.onDelivered('a1', 0, [w1]);
    d.service.onUsageLimit('a1', 0, 'API Error: Request rejected (429)');
    expect(d.lifecycle.pauseOf('a1')?.resetsAt).toBe(7000);
  });

  it('"fail" pauses nothing (the caller fails the wake provider_rate_limited)', () => {
    const d = daemon(tmp(), { onUsageLimit: 'fail', usageLimitBackoffSeconds: 60 });
    const w1 = post(d, 1);
    d.lifecycle.onDelivered('a1', 0, [w1]);
    expect(d.service.onUsageLimit('a1', 0, 'HTTP 429 retry-after: 2')).toBe(false);
    expect(d.lifecycle.pauseOf('a1')).toBeNull();
    expect(statusesOf(d, w1)).toEqual(['queued', 'delivered']);
  });

  it('Try now delivers at once and disarms the reset', () => {
    const d = daemon(tmp());
    const w1 = post(d, 1);
    d.lifecycle.onDelivered('a1', 0, [w1]);
    d.service.onUsageLimit('a1', 0, 'retry-after: 600');
    expect(d.service.tryNow('a1')).toBe(true);
    expect(delivered(d)).toEqual([w1, w1]);
    expect(d.scheduler.step()).toBe(false);
    expect(d.service.tryNow('a1')).toBe(false);
  });

  it('Cancel ends the paused wakes failed/stopped_by_operator once; the wake behind goes on', () => {
    const d = daemon(tmp());
    const w1 = post(d, 1);
    d.lifecycle.onDelivered('a1', 0, [w1]);
    d.service.onUsageLimit('a1', 0, 'retry-after: 600');
    const w2 = post(d, 2);
    expect(d.service.cancel('a1')).toEqual([w1]);
    expect(d.store.getWake(w1)).toMatchObject({ status: 'failed', reason: 'stopped_by_operator' });
    expect(delivered(d)).toEqual([w1, w2]);
    expect(d.service.cancel('a1')).toEqual([]);
    expect(d.scheduler.step()).toBe(false);
  });

  it('survives a daemon restart: the paused wakes stay paused, the reset is re-armed and delivers them', () => {
    const dir = tmp();
    const scheduler = new StepScheduler();
    const a = daemon(dir, undefined, undefined, scheduler);
    const w1 = post(a, 1);
    a.lifecycle.onDelivered('a1', 0, [w1]);
    a.service.onUsageLimit('a1', 0, 'retry-after: 5');
    const w2 = post(a, 2);
    a.service.dispose();
    a.lifecycle.dispose();
    a.store.close();
    const b = daemon(dir, undefined, undefined, scheduler);
    b.service.restore('a1', (pause) => b.lifecycle.restore('a1', undefined, pause));
    expect(b.deliveries).toEqual([]);
    expect(b.lifecycle.pauseOf('a1')).toMatchObject({ kind: 'usage_limit', resetsAt: 5000, wakeTokens: [w1] });
    expect(b.scheduler.step()).toBe(true);
    expect(delivered(b)).toEqual([w1, w2]);
    expect(b.store.pauses.get('a1')).toBeUndefined();
    b.store.close();
  });

  it('a daily budget reached holds new wakes paused; raising it (port + event) releases them', () => {
    let budget: UsageBudget = { reached: true, kind: 'tokens', used: 1000, limit: 1000, resetsAt: 86_400_000 };
    const d = daemon(tmp(), undefined, () => budget);
    const w1 = post(d, 1);
    expect(delivered(d)).toEqual([]);
    expect(statusesOf(d, w1)).toEqual(['queued', 'paused']);
    expect(d.statuses.at(-1)?.reason).toBe('daily_budget');
    // The event alone does not release while the port still says reached.
    expect(d.service.budgetChanged('a1')).toBe(false);
    budget = { ...budget, reached: false, limit: 2000 };
    expect(d.service.budgetChanged('a1')).toBe(true);
    expect(delivered(d)).toEqual([w1]);
  });

  it('a daily budget is re-checked at its reset time, not polled', () => {
    let budget: UsageBudget = { reached: true, kind: 'cost', used: 5, limit: 5, resetsAt: 10_000 };
    const d = daemon(tmp(), undefined, () => budget);
    const w1 = post(d, 1);
    budget = { ...budget, reached: false, used: 0 };
    expect(d.scheduler.step()).toBe(true);
    expect(d.scheduler.now()).toBe(10_000);
    expect(delivered(d)).toEqual([w1]);
    expect(d.scheduler.step()).toBe(false);
  });
});

describe('issue 40 item 8: probing a limit whose reset is unknown', () => {
  const NAMES_NO_RESET = 'API Error: Request rejected (429) · rate limited';

  it('probeDelayMs doubles from the base and stops at 30 minutes (or the base when that is longer)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 9].map((n) => probeDelayMs(60, n) / 60_000)).toEqual([1, 2, 4, 8, 16, 30, 30, 30]);
    expect(probeDelayMs(3600, 3)).toBe(3_600_000);
  });

  it('waits 1, 2, 4 minutes while the provider stays limited, one episode (pausedAt) throughout; a wake that ends starts it over', () => {
    const d = daemon(tmp());
    const w1 = post(d, 1);
    const resets: number[] = [];
    for (let probe = 0; probe < 3; probe++) {
      d.lifecycle.onDelivered('a1', 0, [w1]);
      const before = d.scheduler.now();
      expect(d.service.onUsageLimit('a1', 0, NAMES_NO_RESET)).toBe(true);
      resets.push((d.lifecycle.pauseOf('a1')?.resetsAt ?? 0) - before);
      expect(d.store.pauses.get('a1')?.pausedAt).toBe(new Date(0).toISOString());
      // The probe: at the reset the paused wake is delivered again (and is refused again, above).
      expect(d.scheduler.step()).toBe(true);
    }
    expect(resets).toEqual([60_000, 120_000, 240_000]);
    // The provider takes the turn: the wake ends; the next limit is a new episode from the first step.
    d.lifecycle.onDelivered('a1', 0, [w1]);
    d.lifecycle.onSendResult({ agentId: 'a1', status: 'sent', targetKey: '#general' as never, seenUpToSeq: 1 });
    expect(d.store.getWake(w1)?.status).toBe('reply_sent');
    d.service.wakeEnded('a1');
    const w2 = post(d, 2);
    d.lifecycle.onDelivered('a1', 0, [w2]);
    const now = d.scheduler.now();
    d.service.onUsageLimit('a1', 0, NAMES_NO_RESET);
    expect(d.lifecycle.pauseOf('a1')?.resetsAt).toBe(now + 60_000);
    expect(d.store.pauses.get('a1')?.pausedAt).toBe(new Date(now).toISOString());
  });

  it('Try now probes at once; still limited, the pause returns with its reason and the next step of the backoff', () => {
    const d = daemon(tmp());
    const w1 = post(d, 1);
    d.lifecycle.onDelivered('a1', 0, [w1]);
    d.service.onUsageLimit('a1', 0, NAMES_NO_RESET);
    expect(d.service.tryNow('a1')).toBe(true);
    expect(delivered(d)).toEqual([w1, w1]);
    // The probe's turn is refused again: paused again, usage_limit, waiting twice as long.
    d.lifecycle.onDelivered('a1', 0, [w1]);
    d.service.onUsageLimit('a1', 0, NAMES_NO_RESET);
    expect(statusesOf(d, w1).filter((s) => s === 'paused')).toHaveLength(2);
    expect(d.statuses.filter((s) => s.status === 'paused').map((s) => s.reason)).toEqual([
      'usage_limit',
      'usage_limit',
    ]);
    expect(d.lifecycle.pauseOf('a1')?.resetsAt).toBe(d.scheduler.now() + 120_000);
  });
});
