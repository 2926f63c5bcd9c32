/**
 * issue 16, contract §6.6 end to end over the real store: atomic admission, durable cursors,
 * a daemon restart that recovers in-flight wakes (a landed reply settles `already_sent`, a wake
 * already recovered once fails `daemon_restarted`, the rest end by the ordinary rule and come
 * back as ONE recovery wake per target, delivered before the still-queued wakes), the recovery
 * prompt that re-delivers the unanswered inputs, and the marker settled when its wake ends.
 */
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import { PromptTrajectory } from '../../../../../main/daemon/prompt/prompt-trajectory.js';
import { RecoveryService } from '../../../../../main/daemon/services/recovery-service.js';
import { storedPrompts } from '../../../../../main/daemon/services/stored-prompts.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { recoveryWakeToken } from '../../../../../main/daemon/store/store-ids.js';
import { WakeLifecycle, type WakeDelivery } from '../../../../../main/daemon/wake/index.js';
import type { WakeStatusEvent } from '../../../../../main/daemon/wake/wake-status-event.js';
import { AgentConfigSchema } from '../../../../../shared/config.js';
import { targetKey } from '../../../../../shared/target.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';
import { postOperatorWake } from '../../../../fixtures/operator-wake.js';

const general = targetKey('#general');
const dirs: TempDir[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) d.remove();
});

/** One "daemon run" over a data dir: store, lifecycle, recovery service, recorded statuses and deliveries. */
function run(dir: string) {
  const store = Store.open(dir);
  stores.push(store);
  store.upsertMember({ id: 'operator', kind: 'operator', name: 'You' });
  store.upsertMember({ id: 'demo', kind: 'agent', name: 'Demo' });
  store.ensureConversation(general);
  const lifecycle = new WakeLifecycle({
    journal: store,
    metrics: createWakeMetrics(new Registry()),
    renderFinalCheck: () => 'FINAL CHECK',
    pendingCapacity: 8,
  });
  lifecycle.registerAgent({ agentId: 'demo', publicName: 'demo', displayName: 'Demo', runtime: 'demo', model: null });
  const recovery = new RecoveryService({ store, lifecycle, runtimeOf: () => 'demo' });
  const statuses: WakeStatusEvent[] = [];
  const deliveries: WakeDelivery[] = [];
  lifecycle.wakeStatus$.subscribe((e) => statuses.push(e));
  lifecycle.deliveries$.subscribe((d) => deliveries.push(d));
  const post = (content: string): string => {
    return postOperatorWake(store, lifecycle, general, content).token;
  };
  const crash = () => {
    recovery.dispose();
    lifecycle.dispose();
    stores.splice(stores.indexOf(store), 1);
    store.close();
  };
  return { store, lifecycle, recovery, statuses, deliveries, post, crash };
}

function tempDir(): string {
  const d = makeTempDir('agentteam-recovery-');
  dirs.push(d);
  return d.path;
}

describe('atomic admission and durable cursors (issue 16)', () => {
  it('a message and its wakes are one transaction: a failure while building the wakes stores neither', () => {
    const r = run(tempDir());
    expect(() =>
      r.store.admitMessage({ target: general, authorId: 'operator', authorKind: 'operator', content: 'hi' }, () => {
        throw new Error('crash between message and wake');
      }),
    ).toThrow('crash between');
    expect(r.store.listMessages(general)).toEqual([]);
    expect(r.store.listWakes()).toEqual([]);
    r.post('hello');
    expect(r.store.listMessages(general).map((m) => m.seq)).toEqual([1]);
    expect(r.store.listWakes().map((w) => [w.wakeToken, w.status, w.recoveries])).toEqual([['wk_1', 'queued', 0]]);
  });

  it('SeenUpToSeq moves with the delivered event and survives a restart; a reply stores what it covered', () => {
    const dir = tempDir();
    const a = run(dir);
    a.post('one');
    a.post('two');
    a.lifecycle.onDelivered('demo', 0, ['wk_1', 'wk_2']);
    a.store.appendMessage({
      target: general,
      authorId: 'demo',
      authorKind: 'agent',
      content: 'answer',
      responseId: 'r1',
      repliedUpToSeq: 1,
    });
    a.crash();
    const b = run(dir);
    expect(b.store.agentCursor('demo', general)).toEqual({ seenUpToSeq: 2, repliedUpToSeq: 1 });
  });
});

describe('daemon restart recovers in-flight wakes (contract §6.6, issue 16)', () => {
  it('landed reply → reply_sent already_sent; others → one recovery wake per target, first in line; queued wakes keep their order', () => {
    const dir = tempDir();
    const a = run(dir);
    a.post('one');
    a.post('two /slow');
    a.post('three');
    a.lifecycle.onDelivered('demo', 0, ['wk_1', 'wk_2', 'wk_3']);
    // The reply to "one" landed (stored with RepliedUpToSeq 1) but the daemon died before settling it.
    a.store.appendMessage({
      target: general,
      authorId: 'demo',
      authorKind: 'agent',
      content: 'answer to one',
      responseId: 'r1',
      repliedUpToSeq: 1,
    });
    const late = a.post('four (still queued)');
    a.crash();

    const b = run(dir);
    const restored = b.lifecycle.restore('demo', (f) => b.recovery.recover('demo', f, 'daemon_restarted'));
    expect(restored.ended).toBe(3);
    const end = (t: string) => b.store.getWake(t);
    expect([end('wk_1')?.status, end('wk_1')?.detail]).toEqual(['reply_sent', 'already_sent']);
    // issue 24: failed with why, and continued (its recovery saved in the same transaction).
    expect([end('wk_2')?.status, end('wk_2')?.reason, end('wk_2')?.detail, end('wk_2')?.recoveries]).toEqual([
      'failed',
      'daemon_restarted',
      'AgentTeam restarted while the agent was working on this wake',
      1,
    ]);
    expect(end('wk_3')?.recoveries).toBe(1);
    const [marker] = b.store.listRecoveryMarkers('demo');
    expect(marker).toMatchObject({
      target: general,
      frontierSeq: 3,
      state: 'replay_pending',
      cause: 'daemon_restarted',
    });
    expect(marker?.wakeTokens).toEqual(['wk_2', 'wk_3']);
    const recoveryToken = recoveryWakeToken(marker?.id ?? '');
    // ONE recovery wake, delivered first, then the still-queued wake (original order).
    expect(b.deliveries.flatMap((d) => d.wakes.map((w) => w.wakeToken))).toEqual([recoveryToken, late]);
    expect(b.store.getWake(recoveryToken)).toMatchObject({ messageId: marker?.syntheticMessageId, targetSeq: 3 });

    // Its prompt: the recovery block for #general up to seq 3, with the two unanswered inputs again (not "one").
    const trajectory = new PromptTrajectory(b.store);
    const agent = AgentConfigSchema.parse({ id: 'demo', name: 'Demo', runtime: 'demo' });
    const text = storedPrompts(agent, b.store, trajectory).renderDelivery(b.deliveries[0] as WakeDelivery, 'fresh');
    expect(text).toContain(`<agentteam-recovery id="${marker?.syntheticMessageId}" target="#general" seq="3">`);
    expect(text).toContain('AgentTeam restarted while you were handling inputs.');
    expect(text).toContain('two /slow');
    expect(text).toContain('three');
    expect(text).not.toContain('\none\n');
    expect(b.store.listPromptInputs(recoveryToken).map((p) => p.kind)).toEqual(['turn_context', 'recovery']);

    // Answered: the recovery wake settles reply_sent and its marker is settled.
    b.lifecycle.onDelivered('demo', 0, [recoveryToken, late]);
    b.lifecycle.onSendResult({ agentId: 'demo', status: 'sent', targetKey: general, seenUpToSeq: 3 });
    expect(b.store.getWake(recoveryToken)?.status).toBe('reply_sent');
    expect(b.store.listRecoveryMarkers('demo').map((m) => m.state)).toEqual(['settled']);
  });

  it('at most one recovery per wake: a recovery wake in flight at the next restart fails daemon_restarted, nothing loops', () => {
    const dir = tempDir();
    const a = run(dir);
    a.post('kills the runtime');
    a.lifecycle.onDelivered('demo', 0, ['wk_1']);
    a.crash();
    const b = run(dir);
    b.lifecycle.restore('demo', (f) => b.recovery.recover('demo', f, 'daemon_restarted'));
    const recoveryToken = b.deliveries[0]?.wakes[0]?.wakeToken ?? '';
    expect(recoveryToken).toMatch(/^wk_recovery_/);
    b.lifecycle.onDelivered('demo', 0, [recoveryToken]);
    b.crash();
    const c = run(dir);
    const restored = c.lifecycle.restore('demo', (f) => c.recovery.recover('demo', f, 'daemon_restarted'));
    expect(restored.recovery).toEqual([]);
    expect(c.store.getWake(recoveryToken)).toMatchObject({ status: 'failed', reason: 'daemon_restarted' });
    expect(c.store.listRecoveryMarkers('demo').map((m) => m.state)).toEqual(['settled']);
    expect(c.deliveries).toEqual([]);
    expect(c.store.listWakes({ activeOnly: true })).toEqual([]);
  });

  it('several targets: one marker each, launched one at a time (the next when the running one ends)', () => {
    const dir = tempDir();
    const a = run(dir);
    const other = targetKey('#ops');
    a.store.ensureConversation(other);
    a.post('general input');
    const { message } = a.store.admitMessage(
      { target: other, authorId: 'operator', authorKind: 'operator', content: 'ops input' },
      (m) => [
        {
          wakeToken: 'wk_ops',
          messageId: m.id,
          agentId: 'demo',
          runtime: 'demo',
          target: other,
          targetSeq: m.seq,
          deliveryClass: 'visible_reply',
        },
      ],
    );
    a.lifecycle.enqueue(
      'demo',
      { wakeToken: 'wk_ops', messageId: message.id, target: other, targetSeq: 1, deliveryClass: 'visible_reply' },
      { recorded: true },
    );
    a.lifecycle.onDelivered('demo', 0, ['wk_1', 'wk_ops']);
    a.crash();
    const b = run(dir);
    b.lifecycle.restore('demo', (f) => b.recovery.recover('demo', f, 'daemon_restarted'));
    expect(b.store.listRecoveryMarkers('demo').map((m) => [m.target, m.state])).toEqual([
      ['#general', 'replay_pending'],
      ['#ops', 'pending'],
    ]);
    const first = b.deliveries.flatMap((d) => d.wakes.map((w) => w.wakeToken));
    expect(first).toHaveLength(1);
    b.lifecycle.onDelivered('demo', 0, first);
    b.lifecycle.onSendResult({ agentId: 'demo', status: 'sent', targetKey: general, seenUpToSeq: 1 });
    expect(b.store.listRecoveryMarkers('demo').map((m) => [m.target, m.state])).toEqual([
      ['#general', 'settled'],
      ['#ops', 'replay_pending'],
    ]);
    expect(b.deliveries.at(-1)?.wakes.map((w) => w.target)).toEqual(['#ops']);
  });
});
