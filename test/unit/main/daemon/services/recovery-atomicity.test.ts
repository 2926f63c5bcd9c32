/**
 * issue 24 "A recovery is never lost" (contract §6.6), over the real store: the terminal statuses of
 * the wakes a daemon restart interrupted and the recovery markers that continue them are ONE
 * transaction. A store error in it fails closed (the wakes end `failed` with why, an alert is
 * raised, nothing is thrown out of the caller); a daemon killed (SIGKILL, a real child process) at
 * any point of it leaves the old state or the new one — never "ended and not recovered" — and the
 * next restart finishes the work with one recovery wake.
 */
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import { RecoveryService } from '../../../../../main/daemon/services/recovery-service.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { recoveryWakeToken } from '../../../../../main/daemon/store/store-ids.js';
import { WakeLifecycle } from '../../../../../main/daemon/wake/index.js';
import type { RecoveryLost } from '../../../../../main/daemon/wake/wake-lifecycle.js';
import { DEFAULT_DAEMON_LIMITS } from '../../../../../shared/config.js';
import { targetKey } from '../../../../../shared/target.js';
import { isTerminal } from '../../../../../shared/wake-status.js';
import { spawnFixture } from '../../../../fixtures/child-process.js';
import { postOperatorWake } from '../../../../fixtures/operator-wake.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const general = targetKey('#general');
const dirs: TempDir[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) d.remove();
});

/** One daemon run over a data dir: the store, the lifecycle and the recovery service as the daemon wires them. */
function run(dir: string) {
  const store = Store.open(dir);
  stores.push(store);
  const lost: RecoveryLost[] = [];
  const lifecycle = new WakeLifecycle({
    journal: store,
    metrics: createWakeMetrics(new Registry()),
    renderFinalCheck: () => 'FINAL CHECK',
    pendingCapacity: DEFAULT_DAEMON_LIMITS.pendingCapacity,
  });
  lifecycle.recoveryLost$.subscribe((l) => lost.push(l));
  lifecycle.registerAgent({ agentId: 'demo', publicName: 'demo', displayName: 'Demo', runtime: 'demo', model: null });
  const recovery = new RecoveryService({ store, lifecycle, runtimeOf: () => 'demo' });
  const close = () => {
    recovery.dispose();
    lifecycle.dispose();
    stores.splice(stores.indexOf(store), 1);
    store.close();
  };
  return { store, lifecycle, recovery, lost, close };
}

/** A data dir whose daemon died with two wakes of #general runtime-visible (`delivered`). */
function interruptedDir(): string {
  const d = makeTempDir('agentteam-recovery-atomic-');
  dirs.push(d);
  const a = run(d.path);
  a.store.upsertMember({ id: 'operator', kind: 'operator', name: 'You' });
  a.store.upsertMember({ id: 'demo', kind: 'agent', name: 'Demo' });
  a.store.ensureConversation(general);
  const one = postOperatorWake(a.store, a.lifecycle, general, 'one').token;
  const two = postOperatorWake(a.store, a.lifecycle, general, 'two').token;
  a.lifecycle.onDelivered('demo', 0, [one, two]);
  a.close();
  return d.path;
}

const originals = ['wk_1', 'wk_2'];

/** Each original as the store holds it, and the agent's markers. */
function stateOf(store: Store) {
  return {
    wakes: originals.map((t) => {
      const w = store.getWake(t);
      return [t, w?.status, w?.reason, w?.recoveries];
    }),
    markers: store.listRecoveryMarkers('demo').map((m) => [m.state, m.wakeTokens]),
  };
}

const OLD = {
  wakes: [
    ['wk_1', 'delivered', null, 0],
    ['wk_2', 'delivered', null, 0],
  ],
  markers: [],
};
const NEW = {
  wakes: [
    ['wk_1', 'failed', 'daemon_restarted', 1],
    ['wk_2', 'failed', 'daemon_restarted', 1],
  ],
  markers: [['pending', originals]],
};

describe('a recovery is never lost (issue 24, contract §6.6)', () => {
  it('a store error while saving the markers rolls the terminals back with them, then fails the wakes closed with an alert; nothing is thrown', () => {
    const dir = interruptedDir();
    const b = run(dir);
    const save = vi.spyOn(b.store, 'saveRecoveryBatch').mockImplementationOnce(() => {
      throw new Error('SQLITE_FULL: database or disk is full');
    });
    const restored = b.lifecycle.restore('demo', (f) => b.recovery.recover('demo', f, 'daemon_restarted'));
    expect(save).toHaveBeenCalledTimes(1);
    expect(restored).toMatchObject({ ended: 2, recovery: [] });
    for (const token of originals) {
      const w = b.store.getWake(token);
      expect([w?.status, w?.reason, w?.recoveries]).toEqual(['failed', 'daemon_restarted', 0]);
      expect(w?.detail).toMatch(
        /^the recovery continuation could not be saved \(SQLITE_FULL: database or disk is full\)/,
      );
      // One terminal each: the rolled-back transaction left none behind.
      expect(b.store.listWakeEvents(token).filter((e) => e.status !== null && isTerminal(e.status))).toHaveLength(1);
    }
    expect(b.store.listRecoveryMarkers('demo')).toEqual([]);
    expect(b.store.recoveryLinks('wk_1')).toEqual({ continuedIn: null, continues: [] });
    expect(b.store.listWakes().filter((w) => w.messageId.startsWith('msg_recovery_'))).toEqual([]);
    expect(b.lost).toEqual([
      {
        agentId: 'demo',
        cause: 'daemon_restarted',
        wakeTokens: originals,
        detail: 'SQLITE_FULL: database or disk is full',
      },
    ]);
  });

  it.each([
    ['before_markers', OLD],
    ['after_markers', OLD],
    ['after_commit', NEW],
  ] as const)(
    'a daemon killed %s leaves the old state or the new one, and the next restart recovers the wakes once',
    { timeout: 30_000 },
    async (point, expected) => {
      const dir = interruptedDir();
      const child = spawnFixture('./store-child.ts', ['restore-kill', dir, point]);
      expect(await child.exited).toEqual({ code: null, signal: 'SIGKILL' });

      const c = run(dir);
      expect(stateOf(c.store)).toEqual(expected);
      c.lifecycle.restore('demo', (f) => c.recovery.recover('demo', f, 'daemon_restarted'));
      // Either way the next start ends them failed/daemon_restarted, continued by ONE recovery wake.
      expect(stateOf(c.store).wakes).toEqual(NEW.wakes);
      const [marker, ...more] = c.store.listRecoveryMarkers('demo');
      expect(more).toEqual([]);
      expect(marker).toMatchObject({ state: 'replay_pending', wakeTokens: originals, cause: 'daemon_restarted' });
      const recoveryWake = c.store.getWake(recoveryWakeToken(marker?.id ?? ''));
      expect(recoveryWake).toMatchObject({ status: 'queued', target: general, targetSeq: 2 });
      for (const token of originals)
        expect(c.store.listWakeEvents(token).filter((e) => e.status !== null && isTerminal(e.status))).toHaveLength(1);
      // The inspector's links: each original is continued in the recovery wake, which continues both.
      const recoveryToken = recoveryWakeToken(marker?.id ?? '');
      for (const token of originals)
        expect(c.store.recoveryLinks(token)).toEqual({ continuedIn: recoveryToken, continues: [] });
      expect(c.store.recoveryLinks(recoveryToken)).toEqual({ continuedIn: null, continues: originals });
    },
  );
});
