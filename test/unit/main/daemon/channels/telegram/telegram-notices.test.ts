/**
 * issue 24: the Telegram channel's status notices against the fake Bot API, through the real hook
 * bus and delivery tracker. Every notice is a status (`<agent> · …`, like a beacon), never worded
 * like a reply (`<agent>: …`); a failed wake of a bound conversation is posted once, in the app's
 * language; the no-response notice follows the Telegram channel's own `alertOnNoResponse`.
 */
import { Registry } from 'prom-client';
import { NEVER, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ChannelSettingsSchema,
  TelegramChannelSchema,
  type ChannelSettings,
  type PromptLanguage,
} from '../../../../../../shared/config.js';
import type { TargetKey } from '../../../../../../shared/target.js';
import { HookBus } from '../../../../../../main/daemon/bus/hook-bus.js';
import type { Channel } from '../../../../../../main/daemon/delivery/channel.js';
import { DeliveryTracker } from '../../../../../../main/daemon/delivery/delivery-tracker.js';
import { TelegramService } from '../../../../../../main/daemon/channels/telegram/telegram-service.js';
import type { WakeStatusEvent } from '../../../../../../main/daemon/wake/wake-status-event.js';
import { startFakeTelegram, type FakeTelegram } from '../../../../../fixtures/fake-telegram.js';
import { MemoryStore } from '../../../../../fixtures/memory-store.js';
import { wordsOf } from '../../../../../fixtures/runtime-words.js';

const CHAT = 777;
const quiet = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };

let tg: FakeTelegram;
const stops: Array<() => void> = [];
beforeEach(async () => (tg = await startFakeTelegram()));
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) s();
  await tg.close();
});

function setup(telegramDelivery: Record<string, unknown> = {}) {
  const bus = new HookBus();
  const settings: Record<string, ChannelSettings> = {
    local: ChannelSettingsSchema.parse({}),
    telegram: ChannelSettingsSchema.parse({ responseDelivery: telegramDelivery }),
  };
  const settingsFor = (c: string) => settings[c] ?? ChannelSettingsSchema.parse({});
  const cursors = new Map<string, number>();
  const bindingStore = {
    listBindings: () => [],
    addBinding: () => undefined,
    removeBinding: () => false,
    ensureConversation: (t: TargetKey) => t,
    getConversation: (t: TargetKey) => t,
    channelCursor: (c: string) => cursors.get(c) ?? null,
    setChannelCursor: (c: string, p: number) => void cursors.set(c, p),
    whenDurable: () => Promise.resolve(),
  };
  const wakeStatus$ = new Subject<WakeStatusEvent>();
  /** The wakes a recovery continues (their markers are saved with their terminal). */
  const recovered = new Set<string>();
  const language = { now: 'en' as PromptLanguage };
  const local = { name: 'local', idempotent: true } as unknown as Channel;
  // The tracker delivers on the service's channel, which exists once the service does.
  const ref: { service?: TelegramService } = {};
  const tracker = new DeliveryTracker({
    bus,
    channelFor: () => local,
    channelNamed: (n) => (n === 'telegram' ? ref.service?.route.channel : undefined),
    settingsFor: (c) => settingsFor(c).responseDelivery,
    undelivered: new MemoryStore(),
  });
  const service = new TelegramService({
    name: 'telegram',
    section: TelegramChannelSchema.parse({
      botTokenEnv: 'TG_TOKEN',
      apiRoot: tg.apiRoot,
      bindings: [{ chatId: CHAT, target: '#general', allowFrom: [1] }],
    }),
    configFile: '/nonexistent/agentteam.json',
    env: { TG_TOKEN: tg.token },
    store: bindingStore,
    bus,
    tracker,
    settingsFor,
    agentName: (id) => (id === 'claude' ? 'Claude' : id),
    // The failed wakes here are Claude Code's (the descriptor's words, as the roster gives them).
    runtimeWords: () => wordsOf('claude-code'),
    post: () => ({ wakeTokens: [] }),
    registry: new Registry(),
    log: quiet,
    tuning: { pollTimeoutSeconds: 1, sendTimeoutMs: 500, pollBackoffMs: 100 },
    language: () => language.now,
    wakeStatus$,
    wakeOf: (token) => ({ target: '#general', recoveries: recovered.has(token) ? 1 : 0 }),
    pauseOf: () => undefined,
    // No approval, Stop or Continue is asked or pressed here.
    operator: {
      approvals: { changes$: NEVER, get: () => undefined, answer: () => expect.unreachable() },
      turns: { stop: () => expect.unreachable() },
      team: { continueChain: () => expect.unreachable() },
    },
  });
  ref.service = service;
  service.start();
  stops.push(() => {
    service.stop();
    tracker.stop();
  });
  const failed = (over: Partial<WakeStatusEvent>): WakeStatusEvent => ({
    type: 'wake_status',
    wakeToken: 'wk_1',
    messageId: 'm_1',
    agentId: 'claude',
    agentName: 'claude',
    agentDisplayName: 'Claude',
    runtime: 'claude-code',
    model: null,
    target: '#general',
    targetSeq: 1,
    deliveryClass: 'visible_reply',
    status: 'failed',
    reason: 'auth_required',
    detail: 'not logged in',
    localText: null,
    at: '2026-12-02T06:00:00.000Z',
    ...over,
  });
  const noResponse = (target = '#general') =>
    tracker.raiseNoResponseAlert({
      turnId: 'turn_1',
      agentId: 'claude',
      channel: service.deliveryChannelOf(target) ?? 'local',
      target,
      wakeToken: 'wk_2',
    });
  return { service, wakeStatus$, failed, noResponse, language, recovered };
}

const texts = () => tg.chat(CHAT).map((m) => m.text);

describe('Telegram status notices (issue 24)', () => {
  it('a no-response is a neutral status notice, never worded as the agent', async () => {
    const s = setup();
    expect(s.noResponse()).toBe(true);
    const sent = await tg.waitFor((c) => c.method === 'sendMessage');
    expect(sent.body.text).toBe('ℹ️ Claude · Turn ended without a message — back to idle');
    expect(texts().some((t) => t.startsWith('Claude:'))).toBe(false);
  });

  it("the Telegram channel's own alertOnNoResponse governs a bound conversation's no-response", () => {
    const s = setup({ alertOnNoResponse: false });
    expect(s.service.deliveryChannelOf('#general')).toBe('telegram');
    expect(s.service.deliveryChannelOf('#other')).toBeNull();
    expect(s.noResponse()).toBe(false);
    // An unbound conversation is delivered locally: the local channel's flags (on) decide.
    expect(s.noResponse('#other')).toBe(true);
  });

  it('a failed wake of a bound conversation is one notice with the reason in plain words, in the app language; others are not posted', async () => {
    const s = setup();
    s.wakeStatus$.next(s.failed({ status: 'delivered', reason: null }));
    s.wakeStatus$.next(s.failed({ target: '#other', wakeToken: 'wk_x' }));
    s.wakeStatus$.next(s.failed({}));
    // The same wake again (a replayed event) is never a second notice: its response id is the wake's.
    s.wakeStatus$.next(s.failed({}));
    s.language.now = 'zh-CN';
    s.wakeStatus$.next(s.failed({ wakeToken: 'wk_3', reason: 'cli_exited', detail: 'exit 1' }));
    await tg.waitFor((c) => c.method === 'sendMessage' && String(c.body.text).includes('未能完成'));
    expect(texts()).toEqual([
      expect.stringMatching(/^⚠️ Claude · Couldn't complete — Claude Code isn't signed in\. .*claude/),
      expect.stringMatching(/^⚠️ Claude · 未能完成 — /),
    ]);
    expect(tg.calls.filter((c) => c.method === 'sendMessage')).toHaveLength(2);
  });

  it('a failure a recovery continues says so: interrupted, continued in a new wake (en, zh-CN)', async () => {
    const s = setup();
    s.recovered.add('wk_c1').add('wk_c2');
    s.wakeStatus$.next(s.failed({ wakeToken: 'wk_c1', reason: 'cli_exited', detail: 'exit 1' }));
    await tg.waitFor((c) => c.method === 'sendMessage');
    s.language.now = 'zh-CN';
    s.wakeStatus$.next(s.failed({ wakeToken: 'wk_c2', reason: 'daemon_restarted', detail: null }));
    await tg.waitFor((c) => c.method === 'sendMessage' && String(c.body.text).includes('已中断'));
    expect(texts()).toEqual([
      expect.stringMatching(
        /^⚠️ Claude · Interrupted — Claude.* exited unexpectedly while it worked — continued in a new wake/,
      ),
      expect.stringMatching(/^⚠️ Claude · 已中断 — /),
    ]);
    expect(texts().some((t) => t.includes("Couldn't complete"))).toBe(false);
  });
});
