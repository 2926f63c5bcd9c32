/**
 * The Telegram channel under the delivery tracker (watchdog spec B, issue 18) against the fake
 * Bot API server, one fault at a time. Each case asserts what the chat shows (0 duplicates),
 * how many sendMessage requests were made (never a blind resend after an ambiguous outcome) and
 * the alert it raises.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { ResponseDeliverySchema } from '../../../../../../shared/config.js';
import { HookBus } from '../../../../../../main/daemon/bus/hook-bus.js';
import type { DeliveryResultEvent } from '../../../../../../main/daemon/bus/hook-events.js';
import { DeliveryTracker, type DeliveryAlert } from '../../../../../../main/daemon/delivery/delivery-tracker.js';
import { createTelegramApi } from '../../../../../../main/daemon/channels/telegram/telegram-api.js';
import { REDELIVERED_MARK, TelegramChannel } from '../../../../../../main/daemon/channels/telegram/telegram-channel.js';
import { splitForTelegram } from '../../../../../../main/daemon/channels/telegram/telegram-text.js';
import { startFakeTelegram, type FakeTelegram } from '../../../../../fixtures/fake-telegram.js';
import { MemoryStore } from '../../../../../fixtures/memory-store.js';

const CHAT = 4242;
const SEND_TIMEOUT_MS = 400;

let tg: FakeTelegram;
beforeEach(async () => (tg = await startFakeTelegram()));
afterEach(async () => tg.close());

function setup(o: { apiRoot?: string; token?: string; retryDelayMs?: number } = {}) {
  const bus = new HookBus();
  const store = new MemoryStore();
  const api = createTelegramApi({
    token: o.token ?? tg.token,
    apiRoot: o.apiRoot ?? tg.apiRoot,
    timeoutMs: SEND_TIMEOUT_MS,
  });
  const channel = new TelegramChannel({
    name: 'telegram',
    api: () => api,
    chatFor: (t) => (t === '#ops' ? CHAT : undefined),
  });
  const tracker = new DeliveryTracker({
    bus,
    channelFor: () => channel,
    settingsFor: () => ResponseDeliverySchema.parse({ retryDelayMs: o.retryDelayMs ?? 50 }),
    undelivered: store,
    ackTimeoutMs: 5_000,
  });
  const alerts: DeliveryAlert[] = [];
  tracker.alert$.subscribe((a) => alerts.push(a));
  const results: DeliveryResultEvent[] = [];
  bus.deliveryResult$.subscribe((r) => results.push(r));
  const send = (content: string, chunks?: string[]) =>
    tracker.send({ turnId: 't1', agentId: 'claude', target: '#ops', content, ...(chunks ? { chunks } : {}) });
  const sends = () => tg.calls.filter((c) => c.method === 'sendMessage').length;
  const shown = () => tg.chat(CHAT).map((m) => m.text);
  return { tracker, store, alerts, results, send, sends, shown, stop: () => tracker.stop() };
}

describe('Telegram channel: delivery confirmation against the Bot API', () => {
  it('the message_id is the ACK: delivered once, tg:<chat>:<message_id>, no alert', async () => {
    const t = setup();
    const outcome = await t.send('Found it: the retry loop');
    expect(outcome).toMatchObject({ status: 'sent', messageIds: [`tg:${CHAT}:1`] });
    expect(t.shown()).toEqual(['Found it: the retry loop']);
    expect(t.alerts).toEqual([]);
    expect(t.results.map((r) => [r.channel, r.state, r.attempts])).toEqual([['telegram', 'delivered', 1]]);
    t.stop();
  });

  it('a reply longer than 4096 characters goes as chunks tracked one by one, in order, joined back exactly', async () => {
    const t = setup();
    const text = `${'a'.repeat(5000)}\n${'b'.repeat(3000)} ${'😀'.repeat(1500)}`;
    const chunks = splitForTelegram(text);
    expect(chunks.length).toBe(3);
    expect(chunks.every((c) => c.length <= 4096)).toBe(true);
    const outcome = await t.send(text, chunks);
    expect(outcome.status).toBe('sent');
    expect(t.shown().join('')).toBe(text);
    expect(t.results.map((r) => `${r.chunkIndex + 1}/${r.chunkCount} ${r.state}`)).toEqual([
      '1/3 delivered',
      '2/3 delivered',
      '3/3 delivered',
    ]);
    t.stop();
  });

  it('429: waits retry_after, then retries the same content; shown once, no alert', async () => {
    tg.retryAfterSeconds = 1;
    tg.scriptSends('rate_limited');
    const t = setup({ retryDelayMs: 10 });
    const started = Date.now();
    const outcome = await t.send('after the rate limit');
    expect(outcome.status).toBe('sent');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(t.sends()).toBe(2);
    expect(t.shown()).toEqual(['after the rate limit']);
    expect(t.results[0]).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(t.alerts).toEqual([]);
    t.stop();
  });

  it('500 (Telegram answered it did not take it): retried once; shown once', async () => {
    tg.scriptSends('server_error');
    const t = setup();
    expect((await t.send('after a 500')).status).toBe('sent');
    expect(t.sends()).toBe(2);
    expect(t.shown()).toEqual(['after a 500']);
    expect(t.alerts).toEqual([]);
    t.stop();
  });

  it('500 twice → FAILED_FINAL: alert, kept for its channel, re-delivered once (marked) on the next inbound', async () => {
    tg.scriptSends('server_error', 'server_error');
    const t = setup();
    const outcome = await t.send('kept for later');
    expect(outcome).toMatchObject({ status: 'failed_final', code: 'server_error', preserved: true });
    expect(t.shown()).toEqual([]);
    expect(t.alerts.map((a) => [a.kind, a.channel, a.message])).toEqual([
      ['delivery_failed', 'telegram', 'Reply not delivered — kept for re-delivery'],
    ]);
    expect(t.store.undelivered.map((r) => [r.channel, r.content])).toEqual([['telegram', 'kept for later']]);
    const again = await t.tracker.redeliver('#ops');
    expect(again.map((o) => o.status)).toEqual(['sent']);
    expect(t.shown()).toEqual([`${REDELIVERED_MARK}kept for later`]);
    t.stop();
  });

  it('ACK dropped (the connection dies after the request was written): uncertain + alert, never resent', async () => {
    tg.scriptSends('drop_ack');
    const t = setup();
    const outcome = await t.send('maybe delivered');
    expect(outcome).toMatchObject({ status: 'uncertain', code: 'connection_lost_after_send', preserved: false });
    expect(t.sends()).toBe(1);
    expect(t.shown()).toEqual(['maybe delivered']);
    expect(t.alerts.map((a) => [a.kind, a.message])).toEqual([['delivery_uncertain', 'Delivery unconfirmed']]);
    expect(t.store.undelivered).toEqual([]);
    t.stop();
  });

  it('timeout after the request was received: uncertain (timeout_after_send) + alert, never resent', async () => {
    tg.scriptSends('timeout_after_receive');
    const t = setup();
    const outcome = await t.send('slow provider');
    expect(outcome).toMatchObject({ status: 'uncertain', code: 'timeout_after_send' });
    expect(t.sends()).toBe(1);
    expect(t.shown()).toEqual(['slow provider']);
    expect(t.alerts.map((a) => a.kind)).toEqual(['delivery_uncertain']);
    t.stop();
  });

  it("a proxy's 502 page after the request was taken: ambiguous, never resent", async () => {
    tg.scriptSends('bad_gateway_html');
    const t = setup();
    expect(await t.send('through a proxy')).toMatchObject({ status: 'uncertain' });
    expect(t.sends()).toBe(1);
    expect(t.shown()).toEqual(['through a proxy']);
    t.stop();
  });

  it('a connection refused before the request was written: retried (provably never left), then FAILED_FINAL', async () => {
    const closed = await closedPort();
    const t = setup({ apiRoot: `http://127.0.0.1:${closed}` });
    const outcome = await t.send('nobody listening');
    expect(outcome).toMatchObject({ status: 'failed_final', code: 'connection_refused' });
    expect(t.results[0]).toMatchObject({ attempts: 2 });
    expect(t.alerts.map((a) => a.kind)).toEqual(['delivery_failed']);
    t.stop();
  });

  it('a refused token (401) is permanent: no retry, FAILED_FINAL with the Bot API code', async () => {
    const t = setup({ token: '999:wrong' });
    const outcome = await t.send('bad token');
    expect(outcome).toMatchObject({ status: 'failed_final', code: 'rejected:telegram_401' });
    expect(t.results[0]).toMatchObject({ attempts: 1 });
    t.stop();
  });
});

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
