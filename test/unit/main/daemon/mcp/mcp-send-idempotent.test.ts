/**
 * issue 28: `message_send` is idempotent within a wake, over the real MCP protocol (the SDK client
 * on Streamable HTTP with the agent's bearer token) into the real communication service, delivery
 * tracker, local channel and SQLite store — what a runtime that retries a completed call sees.
 */
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ResponseDeliverySchema } from '../../../../../shared/config.js';
import { targetKey } from '../../../../../shared/target.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import { DeliveryTracker } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { LocalChannel } from '../../../../../main/daemon/delivery/local-channel.js';
import { startMcpServer } from '../../../../../main/daemon/mcp/mcp-server.js';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import { CommunicationService } from '../../../../../main/daemon/services/communication-service.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { WakeLifecycle } from '../../../../../main/daemon/wake/index.js';
import { makeTempDir } from '../../../../fixtures/temp-dir.js';
import { postOperatorWake } from '../../../../fixtures/operator-wake.js';

const general = targetKey('#general');
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const dir = makeTempDir('agentteam-mcp-idempotent-');
  cleanups.push(() => dir.remove());
  const store = Store.open(dir.path);
  cleanups.push(() => store.close());
  store.upsertMember({ id: 'operator', kind: 'operator', name: 'You' });
  store.upsertMember({ id: 'demo', kind: 'agent', name: 'Demo' });
  store.ensureConversation(general);
  const lifecycle = new WakeLifecycle({
    journal: store,
    metrics: createWakeMetrics(new Registry()),
    renderFinalCheck: () => 'FINAL CHECK',
    pendingCapacity: 8,
  });
  cleanups.push(() => lifecycle.dispose());
  lifecycle.registerAgent({ agentId: 'demo', publicName: 'demo', displayName: 'Demo', runtime: 'demo', model: null });
  const tracker = new DeliveryTracker({
    bus: new HookBus(),
    channelFor: () =>
      new LocalChannel({ appendMessage: (m) => store.appendMessage({ ...m, target: targetKey(m.target) }) }),
    settingsFor: () => ResponseDeliverySchema.parse({}),
    undelivered: store,
  });
  cleanups.push(() => tracker.stop());
  const turn = { id: 'turn_1' };
  const service = new CommunicationService({
    store,
    lifecycle,
    tracker,
    currentTurn: () => turn.id,
    onMessageStored: () => undefined,
  });
  cleanups.push(() => service.dispose());
  const server = await startMcpServer({ handler: service, limits: { sendsPerMinute: 60, maxMessageBytes: 4096 } });
  cleanups.push(() => server.close());
  const endpoint = server.issueToken('demo');
  const client = new Client({ name: 'retrying-runtime', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: endpoint.headers } }),
  );
  cleanups.push(() => client.close());
  const send = async (content: string) =>
    ((await client.callTool({ name: 'message_send', arguments: { target: '#general', content } })) as CallToolResult)
      .structuredContent;
  /** An operator message on #general, delivered to the agent (a wake of the running turn). */
  const wake = (content: string) => {
    const w = postOperatorWake(store, lifecycle, general, content);
    lifecycle.onDelivered('demo', 0, [w.token]);
    return w.token;
  };
  const mine = () =>
    store
      .listMessages(general)
      .filter((m) => m.authorId === 'demo')
      .map((m) => m.content);
  return { store, turn, send, wake, mine };
}

describe('issue 28: message_send over MCP is idempotent within a wake', () => {
  it('a retried identical call returns the first result with already_sent: true and posts nothing', async () => {
    const s = await setup();
    const token = s.wake('status?');
    const first = await s.send('all green');
    expect(first).toMatchObject({ status: 'sent', target_key: '#general', seen_up_to_seq: 1 });
    expect(first).not.toHaveProperty('already_sent');
    const again = await s.send('all green');
    expect(again).toEqual({ ...first, status: 'already_sent', already_sent: true });
    expect(s.mine()).toEqual(['all green']);
    expect(s.store.getWake(token)).toMatchObject({ status: 'reply_sent' });
  });

  it('a different message, the same text after a later wake, and the same text in a later turn are all sent', async () => {
    const s = await setup();
    s.wake('status?');
    expect(await s.send('all green')).toMatchObject({ status: 'sent' });
    expect(await s.send('and the build')).toMatchObject({ status: 'sent' });
    s.wake('again?');
    expect(await s.send('all green')).toMatchObject({ status: 'sent', seen_up_to_seq: 4 });
    s.turn.id = 'turn_2';
    expect(await s.send('all green')).toMatchObject({ status: 'sent' });
    expect(s.mine()).toEqual(['all green', 'and the build', 'all green', 'all green']);
  });
});
