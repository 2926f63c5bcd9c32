/**
 * issue 19: the store's commits on a given prom-client `Registry`, so a benchmark can count
 * durable commits (fsyncs) per wake. The store counts in plain numbers; the counters read them
 * only when the registry is scraped.
 */
import { Counter, type Registry } from 'prom-client';

/** What the store counts (store.ts `commits`, `durableCommits`). */
export interface StoreCommitCounts {
  /** Write transactions committed since open, in either durability class. */
  readonly commits: number;
  /** Of those, the FULL ones (store/durability.ts). */
  readonly durableCommits: number;
  /** issue 30: WAL fsyncs for them (group commit: one per event-loop turn that made any). */
  readonly walSyncs: number;
}

/** A counter showing `read()` at each scrape. */
function scraped(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

export function createStoreMetrics(registry: Registry, store: StoreCommitCounts): void {
  scraped(
    registry,
    'agentteam_store_commits_total',
    'Store write transactions committed (either durability class)',
    () => store.commits,
  );
  scraped(
    registry,
    'agentteam_store_durable_commits_total',
    'Store write transactions of the FULL class (durable before anyone outside is told)',
    () => store.durableCommits,
  );
  scraped(
    registry,
    'agentteam_store_wal_syncs_total',
    'WAL fsyncs made for FULL writes (group commit: one per event-loop turn with any)',
    () => store.walSyncs,
  );
}
