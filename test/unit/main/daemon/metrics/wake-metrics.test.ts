import { describe, expect, it } from 'vitest';
import { Registry, register as globalRegistry } from 'prom-client';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import { NO_REPLY_REASONS, RUNTIMES } from '../../../../../shared/wake-status.js';

describe('wake metrics (contract §10.2)', () => {
  it('registers the four counters on the given registry only, labelled by runtime (and reason)', async () => {
    const registry = new Registry();
    const m = createWakeMetrics(registry);
    m.received('codex');
    m.replySent('codex');
    m.completedWithoutVisibleReply('codex', 'no_reply');
    m.failed('demo');
    const text = await registry.metrics();
    expect(text).toContain('wake_received_total{runtime="codex"} 1');
    expect(text).toContain('wake_reply_sent_total{runtime="codex"} 1');
    expect(text).toContain('wake_completed_without_visible_reply_total{runtime="codex",reason="no_reply"} 1');
    expect(text).toContain('wake_failed_total{runtime="demo"} 1');
    expect(globalRegistry.getSingleMetric('wake_received_total')).toBeUndefined();
  });

  it('issue 41: every runtime (and no-reply reason) has a series at 0 before its first event', async () => {
    const registry = new Registry();
    createWakeMetrics(registry).failed('codex');
    const text = await registry.metrics();
    for (const runtime of RUNTIMES) {
      expect(text).toContain(`wake_received_total{runtime="${runtime}"} 0`);
      expect(text).toContain(`wake_reply_sent_total{runtime="${runtime}"} 0`);
      for (const reason of NO_REPLY_REASONS)
        expect(text).toContain(`wake_completed_without_visible_reply_total{runtime="${runtime}",reason="${reason}"} 0`);
    }
    expect(text).toContain('wake_failed_total{runtime="codex"} 1');
    expect(text).toContain('wake_failed_total{runtime="acp"} 0');
  });

  it('reuses counters when built twice on one registry', async () => {
    const registry = new Registry();
    createWakeMetrics(registry).received('demo');
    createWakeMetrics(registry).received('demo');
    expect(await registry.metrics()).toContain('wake_received_total{runtime="demo"} 2');
  });

  it('counts in plain numbers and hands them over at each scrape without double counting (issue 19)', async () => {
    const registry = new Registry();
    const m = createWakeMetrics(registry);
    for (let i = 0; i < 3; i++) m.completedWithoutVisibleReply('demo', 'no_reply');
    m.completedWithoutVisibleReply('demo', 'signal_only');
    expect(await registry.metrics()).toContain('reason="no_reply"} 3');
    m.completedWithoutVisibleReply('demo', 'no_reply');
    const text = await registry.metrics();
    expect(text).toContain('wake_completed_without_visible_reply_total{runtime="demo",reason="no_reply"} 4');
    expect(text).toContain('wake_completed_without_visible_reply_total{runtime="demo",reason="signal_only"} 1');
  });
});
