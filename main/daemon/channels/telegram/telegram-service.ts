/**
 * The Telegram channel (issue 18), the first channel plug-in (issue 39, channels/channel-plugin.ts):
 * a conversation bound to a chat gets, through the delivery tracker (watchdog spec B), every agent
 * reply (telegram-replies.ts), the silence beacons and escalation of its own watchdog (spec A, per
 * `channels.telegram.silenceWatchdog`: telegram-turns.ts) and the notices (telegram-notices.ts);
 * the operator's messages from the chat (long polling, persisted offset, `allowFrom` only) become
 * operator messages in the conversation and wake agents like any other, and the operator's
 * buttons answer approvals (issue 14), stop turns (issue 29) and continue chains (issue 25). Its
 * health and bindings are its own calls for the Settings page (telegram-calls.ts, telegram-health.ts).
 */
import type { Update } from 'grammy/types';
import { Subscription, filter } from 'rxjs';
import type { Alert, Chain } from '../../../../shared/api/contract.js';
import type { TelegramChannelConfig } from '../../../../shared/config.js';
import type { TelegramStatus } from '../../../../shared/telegram-status.js';
import type { UsageWarningFacts } from '../../alerts/usage-warning-words.js';
import type { ChannelRoute } from '../../delivery/channel-routes.js';
import type { Beacon } from '../../watchdog/silence-beacons.js';
import type { ChannelCalls, ChannelContext, ChannelPlugin } from '../channel-plugin.js';
import { TelegramApprovals } from './telegram-approvals.js';
import { TelegramBindings } from './telegram-bindings.js';
import { telegramCalls } from './telegram-calls.js';
import { TelegramChains } from './telegram-chains.js';
import { TelegramChannel } from './telegram-channel.js';
import { TelegramHealth, type TelegramTuning } from './telegram-health.js';
import { TelegramNotices } from './telegram-notices.js';
import { startTelegramPoller } from './telegram-poller.js';
import { TelegramReplies } from './telegram-replies.js';
import { TelegramStops } from './telegram-stops.js';
import { TelegramTurns } from './telegram-turns.js';

type IgnoredReason = 'unbound_chat' | 'not_allowed' | 'not_text';

export class TelegramService implements ChannelPlugin {
  readonly route: ChannelRoute;
  readonly bindings: TelegramBindings;
  readonly beacon$;
  readonly calls: ChannelCalls;
  readonly #c: ChannelContext<TelegramChannelConfig>;
  readonly #tuning: TelegramTuning;
  readonly #health: TelegramHealth;
  readonly #turns: TelegramTurns;
  readonly #notices: TelegramNotices;
  readonly #replies: TelegramReplies;
  /** issue 14 from the phone: approvals of bound conversations are asked in their chats, answerable by button. */
  readonly #approvals: TelegramApprovals;
  /** issue 29 from the phone: the working status of bound conversations carries Stop. */
  readonly #stops: TelegramStops;
  /** issue 25 from the phone: a chain paused at its hop budget is a status line with Continue. */
  readonly #chains: TelegramChains;
  readonly #subs = new Subscription();

  constructor(c: ChannelContext<TelegramChannelConfig>) {
    this.#c = c;
    const tuning: TelegramTuning = c.tuning ?? {};
    this.#tuning = tuning;
    this.bindings = new TelegramBindings(c.name, c.section?.bindings ?? [], c.store);
    this.#health = new TelegramHealth({
      config: c.section,
      configFile: c.configFile,
      env: c.env,
      tuning,
      registry: c.registry,
      log: c.log,
    });
    const api = this.#health.sendApi;
    const bound = (target: string) => this.bindings.forTarget(target) !== undefined;
    const canSend = () => api !== null;
    this.route = {
      channel: new TelegramChannel({
        name: c.name,
        api: () => api,
        chatFor: (target) => this.bindings.forTarget(target)?.chatId,
        durable: () => c.store.whenDurable(),
        onOutcome: (ok, detail) => this.#health.sent(ok, detail),
      }),
      // It runs its own watchdog on its bound turns (telegram-turns.ts).
      daemonBeacons: false,
    };
    this.#turns = new TelegramTurns({
      context: c,
      chatFor: (target) => this.bindings.forTarget(target)?.chatId,
      api,
      typingIntervalMs: tuning.typingIntervalMs ?? 4500,
    });
    this.beacon$ = this.#turns.beacon$;
    this.#notices = new TelegramNotices({ context: c, bound, canSend });
    this.#replies = new TelegramReplies({ context: c, bound, canSend });
    const chat = {
      api: () => api,
      forChat: (chatId: number) => this.bindings.forChat(chatId),
      forTarget: (target: string) => this.bindings.forTarget(target),
      agentName: c.agentName,
      language: c.language,
      log: c.log,
    };
    this.#approvals = new TelegramApprovals({
      ...chat,
      approvals: c.operator.approvals,
      wakeTarget: (wakeToken) => c.wakeOf(wakeToken)?.target,
      counted: (accepted, reason) =>
        this.#health.inbound(accepted ? 'accepted' : 'ignored', accepted ? 'approval_answer' : reason),
    });
    this.#stops = new TelegramStops({ ...chat, turns: c.operator.turns });
    this.#chains = new TelegramChains({ ...chat, chains: c.operator.team });
    this.calls = telegramCalls(this.bindings, () => this.status());
  }

  /**
   * issue 24: the channel a conversation is delivered on, when it is this one (the conversation
   * is bound to a chat); its `responseDelivery` flags then govern the conversation's alerts.
   */
  deliveryChannelOf(target: string): string | null {
    return this.bindings.forTarget(target) === undefined ? null : this.#c.name;
  }

  /** Starts following the bus, the approvals and polling (when there is a token). */
  start(): void {
    const { bus, name, tracker, wakeStatus$, log } = this.#c;
    this.#subs.add(this.#turns.follow());
    this.#subs.add(this.beacon$.subscribe((b) => this.#onBeacon(b)));
    this.#subs.add(bus.responseOutbound$.subscribe((e) => this.#replies.outbound(e)));
    this.#subs.add(
      bus.deliveryResult$.subscribe((e) => (e.channel === name ? this.#health.delivered(e) : this.#replies.result(e))),
    );
    this.#subs.add(tracker.alert$.subscribe((a) => this.#notices.alert(a)));
    this.#subs.add(wakeStatus$.pipe(filter((e) => e.status === 'failed')).subscribe((e) => this.#notices.failed(e)));
    this.#subs.add(wakeStatus$.pipe(filter((e) => e.status === 'paused')).subscribe((e) => this.#notices.paused(e)));
    this.#approvals.start();
    this.#subs.add(bus.turnEnd$.subscribe((e) => this.#stops.turnEnded(e.turnId)));
    const pollApi = this.#health.pollApi;
    if (pollApi !== null) {
      this.#health.identify();
      this.#subs.add(
        startTelegramPoller({
          channel: name,
          api: pollApi,
          cursor: this.#c.store,
          pollTimeoutSeconds: this.#tuning.pollTimeoutSeconds ?? 25,
          backoffMs: this.#tuning.pollBackoffMs ?? 1000,
          handle: (u) => this.#onUpdate(u),
          onDuplicate: () => this.#health.inbound('ignored', 'duplicate'),
          onPoll: (ok, detail) => this.#health.polled(ok, detail),
        }),
      );
    }
    if (this.#c.section !== undefined)
      log.info('telegram: channel started', {
        state: this.#health.state,
        bindings: this.bindings.list().length,
        tokenSource: this.#health.tokenSource(),
      });
  }

  /** issue 25: a chain's hops or status changed (the `chain.updated` event). */
  chainChanged(chain: Chain): void {
    this.#chains.chainChanged(chain);
  }

  /** issue 27: a usage warning raised in a bound conversation: a neutral notice there, once. */
  usageWarning(agentId: string, alert: Alert, warning: UsageWarningFacts): void {
    this.#notices.usageWarning(agentId, alert, warning);
  }

  stop(): void {
    this.#approvals.stop();
    this.#subs.unsubscribe();
    this.#turns.stop();
  }

  status(): TelegramStatus {
    return this.#health.status(this.bindings.list());
  }

  #onBeacon(b: Beacon): void {
    if (b.target === null || this.#health.sendApi === null) return;
    this.#stops.beacon(b);
    this.#notices.beacon(b);
  }

  /** One update from the chat: a button press, or an operator message of the bound conversation, or ignored and counted. */
  #onUpdate(update: Update): void {
    const q = update.callback_query;
    if (q !== undefined) {
      if (this.#stops.handles(q)) return this.#stops.onCallback(q);
      if (this.#chains.handles(q)) return this.#chains.onCallback(q);
      return this.#approvals.onCallback(q);
    }
    const m = update.message;
    const binding = m === undefined ? undefined : this.bindings.forChat(m.chat.id);
    const ignore = (reason: IgnoredReason) => {
      this.#health.inbound('ignored', reason);
      this.#c.log.info('telegram: update ignored', { reason, updateId: update.update_id });
    };
    if (m === undefined || binding === undefined) return ignore('unbound_chat');
    if (m.from === undefined || !binding.allowFrom.has(m.from.id)) return ignore('not_allowed');
    if (typeof m.text !== 'string' || m.text.trim() === '') return ignore('not_text');
    // Idempotent by update_id: a replay of an update already stored stores nothing and wakes nobody.
    const posted = this.#c.post(binding.target, m.text, { inboundKey: `telegram:${update.update_id}` });
    if (posted.duplicate === true) return this.#health.inbound('ignored', 'duplicate');
    this.#health.inbound('accepted', '');
  }
}
