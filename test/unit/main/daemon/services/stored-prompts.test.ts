/**
 * issue 24 (contract §8.2): the prompt an agent session writes for a delivery that mixes a
 * synthetic recovery wake with ordinary wakes has ONE tail reminder, at its end, naming every
 * exact target — over the real store (markers, messages, the prompt_input trajectory).
 */
import { afterEach, expect, it } from 'vitest';
import { AgentConfigSchema } from '../../../../../shared/config.js';
import { targetKey } from '../../../../../shared/target.js';
import { PromptTrajectory } from '../../../../../main/daemon/prompt/prompt-trajectory.js';
import { storedPrompts } from '../../../../../main/daemon/services/stored-prompts.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import type { WakeDelivery } from '../../../../../main/daemon/wake/wake-lifecycle.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const dirs: TempDir[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) d.remove();
});

const general = targetKey('#general');
const ops = targetKey('#ops');

it('a recovery written together with an ordinary wake: one turn context, one tail naming both targets', () => {
  const dir = makeTempDir('agentteam-stored-prompts-');
  dirs.push(dir);
  const store = Store.open(dir.path);
  stores.push(store);
  store.upsertMember({ id: 'operator', kind: 'operator', name: 'You' });
  store.upsertMember({ id: 'demo', kind: 'agent', name: 'Demo' });
  const wake = (target: typeof general, content: string, token: string) =>
    store.admitMessage({ target, authorId: 'operator', authorKind: 'operator', content }, (m) => [
      {
        wakeToken: token,
        messageId: m.id,
        agentId: 'demo',
        runtime: 'demo',
        target,
        targetSeq: m.seq,
        deliveryClass: 'visible_reply',
      },
    ]).wakes[0]!;
  wake(ops, 'the lost one', 'wk_lost');
  store.saveRecoveryBatch('demo', [{ target: ops, frontierSeq: 1, wakeTokens: ['wk_lost'] }], 'process_replaced');
  const launched = store.launchRecovery('demo', (m) => ({
    agentId: 'demo',
    runtime: 'demo',
    target: m.target,
    targetSeq: m.frontierSeq,
    deliveryClass: 'visible_reply',
  }))!;
  const fresh = wake(general, 'a new question', 'wk_new');
  const delivery: WakeDelivery = {
    agentId: 'demo',
    generation: 1,
    wakes: [launched.wake, fresh].map((w) => ({
      wakeToken: w.wakeToken,
      messageId: w.messageId,
      target: w.target,
      targetKey: w.target,
      targetSeq: w.targetSeq,
      deliveryClass: w.deliveryClass,
    })),
  };
  const agent = AgentConfigSchema.parse({ id: 'demo', name: 'Demo', runtime: 'demo' });
  const text = storedPrompts(agent, store, new PromptTrajectory(store)).renderDelivery(delivery, 'wake') ?? '';
  expect(text).toContain('the lost one');
  expect(text).toContain('a new question');
  expect(text.split('Self-check before you write:')).toHaveLength(2);
  const tail = text.slice(text.indexOf('Self-check before you write:'));
  expect(tail).toContain('"#ops"');
  expect(tail).toContain('"#general"');
  expect(text.lastIndexOf('</agentteam-message>')).toBeLessThan(text.indexOf('Self-check before you write:'));
  // The trajectory: the turn context on both wakes, the recovery on its wake, the delivery (with the tail) on the new one.
  expect(store.listPromptInputs(launched.wake.wakeToken).map((p) => p.kind)).toEqual(['turn_context', 'recovery']);
  const own = store.listPromptInputs(fresh.wakeToken);
  expect(own.map((p) => p.kind)).toEqual(['turn_context', 'delivery']);
  expect(own[1]?.text.endsWith(tail)).toBe(true);
});
