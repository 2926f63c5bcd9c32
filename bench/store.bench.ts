/**
 * `npm run bench -- store [N] [ROUNDS]`: durable appends/s and p99 latency of `Store.appendMessage`
 * against raw `node:sqlite` autocommit INSERTs with the same pragmas (WAL, synchronous=FULL) and
 * the same schema — the messages table and its full-text index (migration v4: FTS5 trigram,
 * filled by a trigger) — in the same run, into fresh databases on the same disk (os.tmpdir(); set
 * TMPDIR to move it). A third side without the full-text index says what search costs per append.
 *
 * The machine is shared, so load changes during a run: each round keeps both databases open and
 * alternates batches of BATCH appends between them (which side goes first alternates too), so
 * both sides see the same load. Ratio = store / raw appends/s, median of the rounds (higher is
 * better; goal ≥ 0.75, i.e. store overhead ≤ 1.33×).
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Store } from '../main/daemon/store/index.js';
import { targetKey, type TargetKey } from '../shared/target.js';
import type { Figure } from './bench-kit.js';

const TARGETS: readonly TargetKey[] = [targetKey('#general'), targetKey('#general:ab12'), targetKey('dm:@claude')];
const BATCH = 50;

const content = (i: number) => `message ${i}: ${'lorem ipsum '.repeat(8)}`;
const targetOf = (i: number) => TARGETS[i % TARGETS.length] as TargetKey;

/** One side of the comparison: appends message i, durably, when called. */
interface Side {
  append(i: number): void;
  close(): void;
}

function openRaw(dir: string, fullText: boolean): Side {
  const db = new DatabaseSync(join(dir, 'raw.db'));
  db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;');
  // The store's messages table, column for column and index for index (main/daemon/store/migrations.ts),
  // minus the foreign key to conversations: the baseline is one autocommit INSERT per message.
  db.exec(`CREATE TABLE messages (
    rowid_ INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, target TEXT NOT NULL, seq INTEGER NOT NULL CHECK (seq >= 1),
    author_id TEXT NOT NULL, author_kind TEXT NOT NULL CHECK (author_kind IN ('operator', 'agent')), content TEXT NOT NULL,
    created_at TEXT NOT NULL, response_id TEXT, chunk_index INTEGER, redelivered INTEGER NOT NULL DEFAULT 0,
    UNIQUE (target, seq), CHECK ((response_id IS NULL) = (chunk_index IS NULL))) STRICT`);
  // migration v4 (issue 17 search), statement for statement.
  if (fullText)
    db.exec(`CREATE VIRTUAL TABLE messages_fts USING fts5 (content, content = 'messages', content_rowid = 'rowid_', tokenize = 'trigram');
    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
      INSERT INTO messages_fts (rowid, content) VALUES (new.rowid_, new.content);
    END;`);
  const insert: StatementSync =
    db.prepare(`INSERT INTO messages (id, target, seq, author_id, author_kind, content, created_at, response_id, chunk_index)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const seqs = new Map<string, number>();
  return {
    append(i) {
      const target = targetOf(i);
      const seq = (seqs.get(target) ?? 0) + 1;
      seqs.set(target, seq);
      const agent = i % 2 === 1;
      insert.run(
        `msg_${randomUUID()}`,
        target,
        seq,
        agent ? 'claude' : 'operator',
        agent ? 'agent' : 'operator',
        content(i),
        new Date().toISOString(),
        agent ? `r${i}` : null,
        agent ? 0 : null,
      );
    },
    close: () => db.close(),
  };
}

function openStore(dir: string): Side {
  // issue 30: each append synced before it returns, as the raw side's autocommit: the same
  // durability per call (group commit, one sync per loop turn, is measured by many-agents).
  const store = Store.open(dir, { walSync: false });
  return {
    append(i) {
      // Half operator messages, half agent replies carrying a response id (the idempotent path).
      if (i % 2 === 1)
        store.appendMessage({
          target: targetOf(i),
          authorId: 'claude',
          authorKind: 'agent',
          content: content(i),
          responseId: `r${i}`,
        });
      else
        store.appendMessage({ target: targetOf(i), authorId: 'operator', authorKind: 'operator', content: content(i) });
    },
    close: () => store.close(),
  };
}

interface Sample {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

function summarise(latenciesNs: number[]): Sample {
  const total = latenciesNs.reduce((a, b) => a + b, 0);
  const ms = latenciesNs.map((n) => n / 1e6).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0;
  return { perSecond: latenciesNs.length / (total / 1e9), p50Ms: at(0.5), p99Ms: at(0.99) };
}

type SideName = 'raw' | 'store' | 'bare';
const SIDES: readonly SideName[] = ['raw', 'store', 'bare'];
type RoundResult = Record<SideName, Sample>;

function round(n: number, offset: number): RoundResult {
  const dirs = Object.fromEntries(
    SIDES.map((k) => [k, mkdtempSync(join(tmpdir(), `agentteam-bench-${k}-`))]),
  ) as Record<SideName, string>;
  const sides: Record<SideName, Side> = {
    raw: openRaw(dirs.raw, true),
    store: openStore(dirs.store),
    bare: openRaw(dirs.bare, false),
  };
  const latencies: Record<SideName, number[]> = { raw: [], store: [], bare: [] };
  try {
    for (let start = 0; start < n; start += BATCH) {
      // Who goes first rotates per batch (and per round), so every side sees the same load.
      const k = (start / BATCH + offset) % SIDES.length;
      const order = [...SIDES.slice(k), ...SIDES.slice(0, k)];
      for (const name of order) {
        for (let i = start; i < Math.min(n, start + BATCH); i++) {
          const t0 = process.hrtime.bigint();
          sides[name].append(i);
          latencies[name].push(Number(process.hrtime.bigint() - t0));
        }
      }
    }
  } finally {
    for (const k of SIDES) {
      sides[k].close();
      rmSync(dirs[k], { recursive: true, force: true });
    }
  }
  return { raw: summarise(latencies.raw), store: summarise(latencies.store), bare: summarise(latencies.bare) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

export default async function (args: string[]): Promise<Record<string, unknown>> {
  // --quick (or BENCH_QUICK=1): small sizes, the CI smoke run (issue 19).
  const quick = args.includes('--quick') || process.env.BENCH_QUICK === '1';
  const pos = args.filter((a) => !a.startsWith('--'));
  const n = Number(pos[0] ?? (quick ? 300 : 2000));
  const rounds = Number(pos[1] ?? (quick ? 2 : 5));
  const gc = (globalThis as { gc?: () => void }).gc;
  round(Math.min(200, n), 0); // warm-up (JIT, page cache), not counted
  const results: RoundResult[] = [];
  for (let r = 0; r < rounds; r++) {
    gc?.();
    const res = round(n, r);
    results.push(res);
    console.error(
      `round ${r + 1}/${rounds}: store ${Math.round(res.store.perSecond)}/s p99 ${r3(res.store.p99Ms)} ms; raw ${Math.round(res.raw.perSecond)}/s p99 ${r3(res.raw.p99Ms)} ms; ratio ${r3(res.store.perSecond / res.raw.perSecond)}`,
    );
  }
  const value = median(results.map((x) => x.store.perSecond));
  const baseline = median(results.map((x) => x.raw.perSecond));
  return {
    value: Math.round(value),
    baseline: Math.round(baseline),
    ratio: r3(median(results.map((x) => x.store.perSecond / x.raw.perSecond))),
    unit: 'appends/s',
    goal: 'ratio ≥ 0.75',
    n,
    rounds,
    storeP50Ms: r3(median(results.map((x) => x.store.p50Ms))),
    storeP99Ms: r3(median(results.map((x) => x.store.p99Ms))),
    rawP50Ms: r3(median(results.map((x) => x.raw.p50Ms))),
    rawP99Ms: r3(median(results.map((x) => x.raw.p99Ms))),
    p99Ratio: r3(median(results.map((x) => x.raw.p99Ms / x.store.p99Ms))),
    pragmas: 'journal_mode=WAL synchronous=FULL',
    fullTextShare: r3(median(results.map((x) => x.raw.perSecond / x.bare.perSecond))),
    dir: tmpdir(),
    figures: [
      {
        name: 'store appends/s vs raw node:sqlite insert (WAL, synchronous=FULL, same schema and full-text index)',
        value: Math.round(value),
        unit: 'appends/s',
        baseline: Math.round(baseline),
        ratio: r3(median(results.map((x) => x.store.perSecond / x.raw.perSecond))),
        goal: 'ratio ≥ 0.75',
        met: median(results.map((x) => x.store.perSecond / x.raw.perSecond)) >= 0.75,
        note: `p50 ${r3(median(results.map((x) => x.store.p50Ms)))} ms vs raw ${r3(median(results.map((x) => x.raw.p50Ms)))} ms`,
      },
      {
        name: 'what the full-text index (search) costs: raw inserts/s with it vs without',
        value: Math.round(median(results.map((x) => x.raw.perSecond))),
        unit: 'inserts/s',
        baseline: Math.round(median(results.map((x) => x.bare.perSecond))),
        ratio: r3(median(results.map((x) => x.raw.perSecond / x.bare.perSecond))),
        note: `the FTS5 trigram index written by a trigger on every message (migration v4); p50 ${r3(median(results.map((x) => x.raw.p50Ms)))} ms vs ${r3(median(results.map((x) => x.bare.p50Ms)))} ms without`,
      },
      {
        name: 'store append p99 vs raw',
        value: r3(median(results.map((x) => x.store.p99Ms))),
        unit: 'ms',
        baseline: r3(median(results.map((x) => x.raw.p99Ms))),
        ratio: r3(median(results.map((x) => x.raw.p99Ms / x.store.p99Ms))),
      },
    ] satisfies Figure[],
  };
}
