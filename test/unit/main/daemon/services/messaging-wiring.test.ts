/**
 * issue 39 "back-edges become events": a recovery that could not be saved (issue 24, contract §6.6
 * "fail closed and publish runtime failure evidence") leaves the wake lifecycle as `recoveryLost$`;
 * the messaging room's alerts hear it and tell the operator, so the root passes no alert port to
 * the lifecycle. Over the real store: the wakes a restart interrupted, and a store that refuses the
 * recovery markers.
 */
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiEvent } from '../../../../../shared/api/contract.js';
import { DEFAULT_DAEMON_LIMITS } from '../../../../../shared/config.js';
import { targetKey } from '../../../../../shared/target.js';
import { ApiEvents } from '../../../../../main/daemon/api/api-events.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import type { AgentRoster } from '../../../../../main/daemon/services/agent-roster.js';
import { wireMessaging } from '../../../../../main/daemon/services/messaging-wiring.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import type { TeamService } from '../../../../../main/daemon/teams/team-service.js';
import { WakeLifecycle } from '../../../../../main/daemon/wake/index.js';
import { wireDelivery } from '../../../../../main/daemon/watchdog/delivery-wiring.js';
import { ChannelSettingsSchema } from '../../../../../shared/config.js';
import { postOperatorWake } from '../../../../fixtures/operator-wake.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';
import { StepScheduler } from '../../../../fixtures/virtual-time.js';

const general = targetKey('#general');
const dirs: TempDir[] = [];
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0).reverse()) c();
  for (const d of dirs.splice(0)) d.remove();
});

function lifecycleOver(store: Store): WakeLifecycle {
  const lifecycle = new WakeLifecycle({
    journal: store,
    metrics: createWakeMetrics(new Registry()),
    renderFinalCheck: () => 'FINAL CHECK',
    pendingCapacity: DEFAULT_DAEMON_LIMITS.pendingCapacity,
  });
  lifecycle.registerAgent({ agentId: 'demo', publicName: 'demo', displayName: 'Demo', runtime: 'demo', model: null });
  return lifecycle;
}

describe('wireMessaging (issue 39)', () => {
  it("a recovery the store refused is raised as the operator's alert, from the lifecycle's recoveryLost$", () => {
    const dir = makeTempDir('agentteam-messaging-wiring-');
    dirs.push(dir);
    const store = Store.open(dir.path);
    closers.push(() => store.close());
    store.upsertMember({ id: 'operator', kind: 'operator', name: 'You' });
    store.upsertMember({ id: 'demo', kind: 'agent', name: 'Demo' });
    store.ensureConversation(general);
    // The daemon that died: one wake runtime-visible.
    const before = lifecycleOver(store);
    const token = postOperatorWake(store, before, general, 'one').token;
    before.onDelivered('demo', 0, [token]);
    before.dispose();

    // The next start, wired as the daemon wires it.
    const lifecycle = lifecycleOver(store);
    closers.push(() => lifecycle.dispose());
    const bus = new HookBus();
    const settings = ChannelSettingsSchema.parse({});
    const delivery = wireDelivery({ bus, store, settingsFor: () => settings, clock: new StepScheduler(), lifecycle });
    closers.push(() => delivery.stop());
    const out = new ApiEvents(store, () => 'Demo');
    const events: ApiEvent[] = [];
    out.events$.subscribe((e) => events.push(e));
    const roster = {
      name: () => 'Demo',
      ids: () => new Set(['demo']),
      runtimeOf: () => 'demo',
      turnOf: () => null,
      wakesOfTurn: () => [],
    } as unknown as AgentRoster;
    const messaging = wireMessaging({
      store,
      lifecycle,
      roster,
      bus,
      delivery,
      team: {} as TeamService,
      limits: DEFAULT_DAEMON_LIMITS,
      out,
      log: { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} },
    });
    closers.push(() => messaging.dispose());

    vi.spyOn(store, 'saveRecoveryBatch').mockImplementationOnce(() => {
      throw new Error('SQLITE_FULL: database or disk is full');
    });
    lifecycle.restore('demo', (f) => messaging.recovery.recover('demo', f, 'daemon_restarted'));

    const raised = events.filter((e) => e.name === 'alert.raised').map((e) => e.payload);
    expect(raised).toMatchObject([
      {
        kind: 'runtime_crashed',
        wakeToken: token,
        message: expect.stringMatching(/^Demo's interrupted work could not be continued \(SQLITE_FULL/),
      },
    ]);
    expect(store.getWake(token)).toMatchObject({ status: 'failed', reason: 'daemon_restarted' });
  });
});
