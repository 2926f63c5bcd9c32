/**
 * issue 39 "Plug-ins": the root builds every registered channel through the registry and talks to
 * the result only. Telegram is the first line: configured or not it answers its own calls,
 * brings its delivery route (its own watchdog, so not the daemon's beacons), and names itself as
 * the delivery channel of the conversations bound to its chats, and of no other.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
import { NEVER } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { API_CALL_NAMES } from '../../../../../shared/api/api-names.js';
import { ChannelSettingsSchema, ConfigSchema } from '../../../../../shared/config.js';
import type { TargetKey } from '../../../../../shared/target.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import { configuredChannels, createChannels, type Channels } from '../../../../../main/daemon/channels/registry.js';
import { DeliveryTracker } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { ChannelRoutes } from '../../../../../main/daemon/delivery/channel-routes.js';
import type { Channel } from '../../../../../main/daemon/delivery/channel.js';
import { MemoryStore } from '../../../../fixtures/memory-store.js';
import { telegramCall } from '../../../../fixtures/telegram-status.js';
import { wordsOf } from '../../../../fixtures/runtime-words.js';

const quiet = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };
const built: Channels[] = [];
afterEach(() => built.splice(0).forEach((c) => c.stop()));

/** The delivery channel of a conversation as the daemon's routes answer it, with these channels' routes added. */
function routed(channels: Channels): (target: string) => string {
  const routes = new ChannelRoutes();
  for (const route of channels.routes) routes.add(route);
  return routes.deliveryChannelOf;
}

function build(channels: Record<string, unknown>): Channels {
  const bus = new HookBus();
  const tracker = new DeliveryTracker({
    bus,
    channelFor: () => ({ name: 'local', idempotent: true }) as unknown as Channel,
    channelNamed: () => undefined,
    settingsFor: () => ChannelSettingsSchema.parse({}).responseDelivery,
    undelivered: new MemoryStore(),
  });
  const stored: { chatId: string; target: string; allowFrom: readonly (string | number)[] }[] = [];
  const result = createChannels({
    config: ConfigSchema.parse({ channels }),
    configFile: '/nonexistent/agentteam.json',
    env: {},
    store: {
      listBindings: (channel) => (channel === 'telegram' ? stored : []),
      addBinding: (_channel, b) => void stored.push(b),
      removeBinding: () => false,
      ensureConversation: (t: TargetKey) => t,
      // Every conversation exists here (the refusal of a missing one: telegram-daemon.test.ts).
      getConversation: (t: TargetKey) => t,
      channelCursor: () => null,
      setChannelCursor: () => undefined,
      whenDurable: () => Promise.resolve(),
    },
    bus,
    tracker,
    settingsFor: () => ChannelSettingsSchema.parse({}),
    agentName: (id) => id,
    runtimeWords: () => wordsOf('claude-code'),
    post: () => ({ wakeTokens: [] }),
    registry: new Registry(),
    log: quiet,
    language: () => 'en',
    wakeOf: () => undefined,
    pauseOf: () => undefined,
    wakeStatus$: NEVER,
    operator: {
      approvals: { changes$: NEVER, get: () => undefined, answer: () => expect.unreachable() },
      turns: { stop: () => expect.unreachable() },
      team: { continueChain: () => expect.unreachable() },
    },
  });
  result.start();
  built.push(result);
  return result;
}

describe('the channel registry (issue 39)', () => {
  it('names the channels agentteam.json configures: the Settings page edits those', () => {
    expect(configuredChannels(ConfigSchema.parse({}))).toEqual([]);
    expect(configuredChannels(ConfigSchema.parse({ channels: { telegram: {} } }))).toEqual(['telegram']);
  });

  it('answers the Telegram calls through channels.call, brings the Telegram route, and delivers bound conversations there only', async () => {
    const channels = build({
      telegram: { botTokenEnv: 'NOT_SET', bindings: [{ chatId: 777, target: '#general', allowFrom: [1] }] },
    });
    // issue 39: a channel's calls are its own; the contract has one call for all of them and none named after a channel.
    expect(Object.keys(channels.api)).toEqual(['channels.call']);
    expect(API_CALL_NAMES.filter((n) => n.startsWith('telegram.'))).toEqual([]);
    // A new channel's calls are its folder's: the API contract names no channel's call or schema.
    for (const file of readdirSync('shared/api'))
      expect(readFileSync(`shared/api/${file}`, 'utf8'), file).not.toMatch(
        /'telegram\.|Telegram\w*(Schema|Request|Status)/,
      );
    expect(channels.routes.map((r) => [r.channel.name, r.daemonBeacons])).toEqual([['telegram', false]]);
    const deliveryChannelOf = routed(channels);
    expect(deliveryChannelOf('#general')).toBe('telegram');
    expect(deliveryChannelOf('#ops')).toBe('local');
    // A binding added in the Settings page is stored under the channel's name, and delivers there at once.
    const status = await telegramCall(channels.api, 'addBinding', { chatId: 778, target: '#ops', allowFrom: [1] });
    expect(status).toMatchObject({ configured: true, state: 'no_token' });
    expect(status.bindings.map((b) => [b.chatId, b.target, b.source])).toEqual([
      [777, '#general', 'config'],
      [778, '#ops', 'settings'],
    ]);
    expect(deliveryChannelOf('#ops')).toBe('telegram');
  });

  it('answers for Telegram when agentteam.json has no section for it: not configured, nothing delivered there', async () => {
    const channels = build({});
    expect(await telegramCall(channels.api, 'status')).toMatchObject({ configured: false, state: 'not_configured' });
    expect(routed(channels)('#general')).toBe('local');
  });

  it("parses a channel call's arguments with the channel's own schema: a malformed call is refused, naming the call and the field", async () => {
    const channels = build({ telegram: { botTokenEnv: 'NOT_SET' } });
    const call = (request: { channel: string; call: string; args?: unknown }) =>
      channels.api['channels.call']({ args: undefined, ...request });
    await expect(
      call({ channel: 'telegram', call: 'addBinding', args: { chatId: 0, target: '#ops', allowFrom: [1] } }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: 'telegram.addBinding: chatId: a Telegram chat id' });
    await expect(call({ channel: 'telegram', call: 'removeBinding', args: { chatId: '42' } })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^telegram\.removeBinding: chatId: .*number/) as unknown,
    });
    await expect(call({ channel: 'telegram', call: 'status', args: { extra: 1 } })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^telegram\.status: .*extra/) as unknown,
    });
    await expect(call({ channel: 'telegram', call: 'toString' })).rejects.toMatchObject({
      code: 'unknown_call',
      message: '"toString" is not a call of the telegram channel (status, addBinding, removeBinding).',
    });
    await expect(call({ channel: 'sms', call: 'status' })).rejects.toMatchObject({
      code: 'unknown_call',
      message: '"sms" is not a channel of AgentTeam (telegram).',
    });
    // Nothing was bound by the refused calls; a call without args is a call with none.
    expect(await call({ channel: 'telegram', call: 'status' })).toMatchObject({ state: 'no_token', bindings: [] });
  });
});
