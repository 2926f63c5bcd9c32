/**
 * Crash safety (issue 3): a child process appends 1,000 messages and is SIGKILLed at random
 * points several times (after a random number of acknowledged appends, or at a random time after
 * spawn). After reopening: `PRAGMA integrity_check` is ok, every message whose
 * append returned (the child reports each one before continuing) is present exactly once, and
 * every target's TargetSeq stays gap-free. Restarts resume from the last acknowledged message,
 * so appends that committed but were never acknowledged are retried with the same responseId:
 * idempotency must turn them into `already_sent`, never into duplicates.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { DB_FILE, Store } from '../../../../../main/daemon/store/index.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';
import { spawnFixture } from '../../../../fixtures/child-process.js';

const TOTAL = 1000;
const KILLS = 5;

/** Small seeded PRNG (mulberry32) so a failing run can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let dir: TempDir;
beforeEach(() => (dir = makeTempDir('agentteam-crash-')));
afterEach(() => dir.remove());

describe('store crash safety under SIGKILL', () => {
  it(
    `keeps every acknowledged append exactly once and sequences gap-free across ${KILLS} kills`,
    { timeout: 120_000 },
    async () => {
      const seed = Number(process.env.STORE_CRASH_SEED ?? Date.now() % 1_000_000);
      const random = prng(seed);
      const acked = new Map<number, { id: string; target: string; seq: number }>();
      let next = 0;
      let kills = 0;
      while (next < TOTAL) {
        // Even kills: after 1–80 acknowledged appends (so mid-append of the next one).
        // Odd kills: at a random time after spawn, which may also land in start-up, open or
        // migration; such a run is given at most 200 messages, and if it finishes before the
        // timer, it simply does not count as a kill. Time kills are tried only while more than
        // 500 messages remain, so the ack kills always have room and all KILLS kills happen.
        // The last run finishes.
        const killing = kills < KILLS;
        const byTime = killing && kills % 2 === 1 && TOTAL - next > 500;
        const to = byTime ? Math.min(TOTAL, next + 200) : TOTAL;
        const killAfter = killing && !byTime ? 1 + Math.floor(random() * 80) : Number.POSITIVE_INFINITY;
        const child = spawnFixture('./store-child.ts', ['append', dir.path, String(next), String(to)]);
        const timer = byTime ? setTimeout(() => child.child.kill('SIGKILL'), Math.floor(random() * 600)) : undefined;
        let seen = 0;
        child.onLine((line) => {
          const [word, n, id, target, seq] = line.split(' ');
          if (word !== 'ack') return;
          const index = Number(n);
          const previous = acked.get(index);
          // A retried append must answer with the message first stored.
          if (previous !== undefined) expect(previous.id).toBe(id);
          acked.set(index, { id: id ?? '', target: target ?? '', seq: Number(seq) });
          next = Math.max(next, index + 1);
          if (++seen === killAfter) child.child.kill('SIGKILL');
        });
        const { code, signal } = await child.exited;
        clearTimeout(timer);
        if (signal === 'SIGKILL') kills++;
        else expect(code, `child failed (seed ${seed})`).toBe(0);
      }
      expect(kills, `seed ${seed}`).toBe(KILLS);

      const db = new DatabaseSync(join(dir.path, DB_FILE), { readOnly: true });
      expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      db.close();

      const store = Store.open(dir.path);
      try {
        let total = 0;
        for (const c of store.listConversations()) {
          const messages = store.listMessages(c.target, { limit: TOTAL });
          // Gap-free: exactly 1..lastSeq.
          expect(
            messages.map((m) => m.seq),
            `${c.target} (seed ${seed})`,
          ).toEqual(Array.from({ length: c.lastSeq }, (_, i) => i + 1));
          total += messages.length;
        }
        expect(total, `seed ${seed}`).toBe(TOTAL);
        const byResponse = new Map<string, number>();
        for (const c of store.listConversations()) {
          for (const m of store.listMessages(c.target, { limit: TOTAL }))
            byResponse.set(m.responseId ?? '', (byResponse.get(m.responseId ?? '') ?? 0) + 1);
        }
        expect([...byResponse.values()].every((n) => n === 1)).toBe(true);
        expect(acked.size).toBe(TOTAL);
        for (const [n, a] of acked) {
          const m = store.getMessage(a.id);
          expect(m, `acked message ${n} (seed ${seed})`).toMatchObject({
            content: `m${n}`,
            responseId: `r${n}`,
            target: a.target,
            seq: a.seq,
          });
        }
      } finally {
        store.close();
      }
    },
  );
});
