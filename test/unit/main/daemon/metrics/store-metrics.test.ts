import { describe, expect, it } from 'vitest';
import { Registry, register as globalRegistry } from 'prom-client';
import { createStoreMetrics } from '../../../../../main/daemon/metrics/store-metrics.js';

describe('store metrics (issue 19)', () => {
  it("shows the store's commit counts at each scrape, on the given registry only", async () => {
    const registry = new Registry();
    const store = { commits: 3, durableCommits: 1, walSyncs: 1 };
    createStoreMetrics(registry, store);
    let text = await registry.metrics();
    expect(text).toContain('agentteam_store_commits_total 3');
    expect(text).toContain('agentteam_store_durable_commits_total 1');
    store.commits = 7;
    store.durableCommits = 2;
    store.walSyncs = 1;
    text = await registry.metrics();
    // The store's totals, not a sum of scrapes.
    expect(text).toContain('agentteam_store_commits_total 7');
    expect(text).toContain('agentteam_store_durable_commits_total 2');
    // issue 30: two FULL commits of one turn, one WAL sync.
    expect(text).toContain('agentteam_store_wal_syncs_total 1');
    expect(globalRegistry.getSingleMetric('agentteam_store_commits_total')).toBeUndefined();
  });
});
