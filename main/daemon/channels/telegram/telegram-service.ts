/**
 * The Telegram channel service (issue 18): a conversation bound to a chat gets, through the
 * delivery tracker (watchdog spec B), every agent reply, the silence beacons and escalation
 * (spec A, per `channels.telegram.silenceWatchdog`) and the delivery alerts; the operator's
 * messages from the chat (long polling, persisted offset, `allowFrom` only) become operator
 * messages in the conversation and wake agents like any other.
 *
 * - Replies: once a reply is stored in the local conversation (its local ACK), it goes to the
 *   chat as its own response `tg:<response_id>` of the same turn, split at Telegram's limit,
 *   each chunk confirmed by Telegram's `message_id`. A replay (`already_sent`) is not resent.
 * - Beacons: a watchdog of its own over the bound turns, reset only by Telegram-confirmed
 *   replies (spec A: operator-visible output on this channel); `typing` is sent while the turn
 *   runs and never resets it (unless `resetOnTypingOnly`).
 * - Alerts (delivery failed / unconfirmed, no response) about a bound conversation are posted as
 *   neutral notices (purpose `alert`): never written as the agent, never a reply.
 * - Status (issue 24, the local status area's rule): each agent's outcome is its own notice,
 *   `<agent> · <status>` like a beacon, never `<agent>: …` like a reply. A wake of a bound
 *   conversation that ends `failed` is posted at once with its reason in plain words; a notice is
 *   a message of its own, so another agent's "Working…" beacons or reply never hide or overwrite
 *   it. A turn that ended with nothing sent is the no-response notice (governed by this channel's
 *   `alertOnNoResponse`); a reply is the reply itself.
 */
import { statSync } from 'node:fs';
import type { Api } from 'grammy';
import type { Update } from 'grammy/types';
import { Counter, type Registry } from 'prom-client';
import { Subscription, interval, startWith, takeUntil, filter, type Observable } from 'rxjs';
import { failureWords, httpStatusOf } from '../../../../shared/agent-readiness.js';
import type { Alert, Chain, TelegramStatus } from '../../../../shared/api/contract.js';
import { isFailureReason } from '../../../../shared/wake-status.js';
import {
  LOCAL_CHANNEL,
  type ChannelSettings,
  type PromptLanguage,
  type TelegramChannelConfig,
} from '../../../../shared/config.js';
import { HookBus } from '../../bus/hook-bus.js';
import type { DeliveryResultEvent, ResponseOutboundEvent } from '../../bus/hook-events.js';
import { usageWarningWords, type UsageWarningFacts } from '../../alerts/usage-warning-words.js';
import type { DaemonLog } from '../../daemon-log.js';
import type { DeliveryAlert, DeliveryTracker } from '../../delivery/delivery-tracker.js';
import type { WakeStatusEvent } from '../../wake/wake-status-event.js';
import { beaconText } from '../../watchdog/beacon-router.js';
import type { Beacon } from '../../watchdog/silence-beacons.js';
import { silenceWatchdog } from '../../watchdog/silence-watchdog.js';
import { createTelegramApi, DEFAULT_API_ROOT, describeTelegramError } from './telegram-api.js';
import { TelegramApprovals, type TelegramApprovalPort } from './telegram-approvals.js';
import { TelegramStops, type TelegramStopPort } from './telegram-stops.js';
import { TelegramChains, type TelegramChainPort } from './telegram-chains.js';
import { TelegramBindings, type BindingStore } from './telegram-bindings.js';
import { CHUNK_LIMIT, TelegramChannel } from './telegram-channel.js';
import { startTelegramPoller, type CursorPort } from './telegram-poller.js';
import { splitForTelegram } from './telegram-text.js';

/** Timing knobs (tests make them small); the defaults suit the real Bot API. */
export interface TelegramTuning {
  /** Long-poll seconds (`getUpdates.timeout`). Default 25. */
  readonly pollTimeoutSeconds?: number;
  /** No answer within this time after a send was written: `timeout_after_send`. Default 15 s. */
  readonly sendTimeoutMs?: number;
  /** `sendChatAction typing` period while a bound turn runs (Telegram shows it ~5 s). Default 4.5 s. */
  readonly typingIntervalMs?: number;
  /** First backoff after a failed poll. Default 1 s. */
  readonly pollBackoffMs?: number;
}

export interface TelegramServiceOptions {
  readonly name: string;
  /** `channels.telegram`, or undefined when agentteam.json has none. */
  readonly config: TelegramChannelConfig | undefined;
  /** agentteam.json (to warn when it holds the token and others can read it). */
  readonly configFile: string;
  readonly env: NodeJS.ProcessEnv;
  readonly store: BindingStore & CursorPort;
  readonly bus: HookBus;
  readonly tracker: Pick<DeliveryTracker, 'send' | 'alert$'>;
  readonly settingsFor: (channel: string) => ChannelSettings;
  readonly agentName: (agentId: string) => string;
  /** Posts an operator message (ConversationService.post): idempotent by `inboundKey`. */
  readonly post: (
    target: string,
    content: string,
    options: { inboundKey: string },
  ) => { readonly duplicate?: boolean; readonly wakeTokens: readonly string[] };
  readonly registry: Registry;
  readonly log: DaemonLog;
  readonly tuning?: TelegramTuning;
  /** issue 14 from the phone: the app's language (`settings.language`) for approval questions. Default en. */
  readonly language?: () => PromptLanguage;
  /**
   * The stored wake: its conversation (issue 14: the chat an approval belongs in) and its recoveries
   * (issue 24: a failure a recovery continues says so).
   */
  readonly wakeOf?: (wakeToken: string) => { readonly target: string; readonly recoveries: number } | undefined;
  /** issue 24: every wake status change (the lifecycle's `wakeStatus$`): a bound wake's failure is posted. */
  readonly wakeStatus$?: Observable<WakeStatusEvent>;
}

/** issue 24: the status words of the chat's notices (neutral, UI.md "Chips and copy"), in the app's language. */
const STATUS_WORDS: Record<
  PromptLanguage,
  { readonly failed: string; readonly interrupted: string; readonly noResponse: string }
> = {
  en: {
    failed: "Couldn't complete",
    interrupted: 'Interrupted',
    noResponse: 'Turn ended without a message — back to idle',
  },
  'zh-CN': { failed: '未能完成', interrupted: '已中断', noResponse: '本轮结束，未发送消息，已回到空闲' },
};

type IgnoredReason = 'unbound_chat' | 'not_allowed' | 'not_text';

export class TelegramService {
  readonly channel: TelegramChannel;
  readonly bindings: TelegramBindings;
  /** Beacons of bound turns (for the metrics). */
  readonly beacon$: Observable<Beacon>;
  readonly #o: TelegramServiceOptions;
  readonly #token: string | null;
  readonly #sendApi: Api | null;
  readonly #pollApi: Api | null;
  readonly #turnBus = new HookBus();
  readonly #subs = new Subscription();
  readonly #typing = new Map<string, Subscription>();
  /** Turns waiting for the operator's approval: "typing…" would say the agent is working; it is not. */
  readonly #waitingTurns = new Set<string>();
  /** Local replies of bound conversations waiting for their local ACK, by response_id. */
  readonly #pending = new Map<
    string,
    { turnId: string; agentId: string; target: string; chunks: string[]; delivered: number }
  >();
  readonly #inbound: Counter<'result' | 'reason'>;
  #state: TelegramStatus['state'];
  #detail: string | null = null;
  #bot: TelegramStatus['bot'] = null;
  #lastPollAt: string | null = null;
  #lastSendAt: string | null = null;
  #lastSendError: string | null = null;
  readonly #warning: string | null;
  readonly #counts = { accepted: 0, ignored: 0, duplicates: 0, delivered: 0, failedFinal: 0, uncertain: 0 };
  /** Approval questions and their buttons (attachApprovals); null until the approval service exists. */
  #approvals: TelegramApprovals | null = null;
  /** issue 29: the Stop button on the working status of bound conversations. */
  #stops: TelegramStops | null = null;
  /** issue 25: the Continue button on a chain paused at its hop budget. */
  #chains: TelegramChains | null = null;

  constructor(o: TelegramServiceOptions) {
    this.#o = o;
    const cfg = o.config;
    const tuning = o.tuning ?? {};
    this.bindings = new TelegramBindings(cfg?.bindings ?? [], o.store);
    this.#token = cfg?.botToken ?? (cfg?.botTokenEnv !== undefined ? (o.env[cfg.botTokenEnv] ?? null) : null);
    if (this.#token === '') this.#token = null;
    const apiRoot = cfg?.apiRoot ?? DEFAULT_API_ROOT;
    const pollSeconds = tuning.pollTimeoutSeconds ?? 25;
    this.#sendApi =
      this.#token === null
        ? null
        : createTelegramApi({ token: this.#token, apiRoot, timeoutMs: tuning.sendTimeoutMs ?? 15_000 });
    this.#pollApi =
      this.#token === null
        ? null
        : createTelegramApi({ token: this.#token, apiRoot, timeoutMs: pollSeconds * 1000 + 10_000 });
    this.#state = cfg === undefined ? 'not_configured' : this.#token === null ? 'no_token' : 'connecting';
    this.#detail =
      cfg === undefined
        ? 'Add "channels.telegram" with "botTokenEnv" to agentteam.json and restart.'
        : this.#token === null
          ? cfg.botTokenEnv !== undefined
            ? `The environment variable ${cfg.botTokenEnv} is not set; set it to the bot token from @BotFather and restart.`
            : 'Set "botTokenEnv" (the name of an environment variable holding the bot token) in channels.telegram and restart.'
          : null;
    this.#warning = tokenFileWarning(cfg, o.configFile);
    if (this.#warning !== null) o.log.warn('telegram: ' + this.#warning, { file: o.configFile });
    this.#inbound = new Counter({
      name: 'agentteam_telegram_inbound_updates_total',
      help: 'Telegram updates received by long polling: accepted (stored as operator messages) or ignored',
      labelNames: ['result', 'reason'] as const,
      registers: [o.registry],
    });

    this.channel = new TelegramChannel({
      name: o.name,
      api: () => this.#sendApi,
      chatFor: (target) => this.bindings.forTarget(target)?.chatId,
      durable: () => o.store.whenDurable(),
      onOutcome: (ok, detail) => {
        this.#lastSendAt = new Date().toISOString();
        this.#lastSendError = ok ? null : detail;
      },
    });

    // spec A on this channel: the bound turns, reset only by Telegram-confirmed replies.
    this.beacon$ = silenceWatchdog({ bus: this.#turnBus, settingsFor: () => o.settingsFor(o.name).silenceWatchdog });
  }

  /**
   * issue 24: the channel a conversation is delivered on, when it is this one (the conversation
   * is bound to a chat); its `responseDelivery` flags then govern the conversation's alerts.
   */
  deliveryChannelOf(target: string): string | null {
    return this.bindings.forTarget(target) === undefined ? null : this.#o.name;
  }

  /** Starts following the bus and polling (when there is a token). */
  start(): void {
    const { bus, name } = this.#o;
    this.#subs.add(
      bus.turnStart$.subscribe((e) => {
        if (e.target === undefined || this.bindings.forTarget(e.target) === undefined) return;
        this.#turnBus.emit('turn.start', { ...e, channel: name });
        this.#startTyping(e.turnId, e.target, e.agentId);
      }),
    );
    this.#subs.add(
      bus.turnEnd$.subscribe((e) => {
        this.#typing.get(e.turnId)?.unsubscribe();
        this.#typing.delete(e.turnId);
        this.#waitingTurns.delete(e.turnId);
        this.#turnBus.emit('turn.end', e);
      }),
    );
    // issue 14: a turn waiting for the operator's approval is operator-visible here too (its question is in
    // the chat): no 🧠 beacon while it waits, and the silence clock restarts from zero after the answer.
    this.#subs.add(
      bus.approvalWait$.subscribe((e) => {
        if (e.waiting) this.#waitingTurns.add(e.turnId);
        else this.#waitingTurns.delete(e.turnId);
        this.#turnBus.emit('approval.wait', e);
      }),
    );
    this.#subs.add(
      bus.messageDelivered$.pipe(filter((e) => e.channel === name)).subscribe((e) => {
        this.#turnBus.emit('message.delivered', e);
      }),
    );
    this.#subs.add(this.beacon$.subscribe((b) => this.#postBeacon(b)));
    this.#subs.add(bus.responseOutbound$.subscribe((e) => this.#onOutbound(e)));
    this.#subs.add(bus.deliveryResult$.subscribe((e) => this.#onResult(e)));
    this.#subs.add(this.#o.tracker.alert$.subscribe((a) => this.#postAlert(a)));
    if (this.#o.wakeStatus$ !== undefined)
      this.#subs.add(
        this.#o.wakeStatus$.pipe(filter((e) => e.status === 'failed')).subscribe((e) => this.#postFailed(e)),
      );
    if (this.#pollApi !== null) {
      // The bot's identity, and the first sign of health: a long poll may stay open for its whole timeout.
      void this.#pollApi.getMe().then(
        (me) => {
          this.#bot = { id: me.id, username: me.username ?? null };
          if (this.#state === 'connecting') this.#state = 'polling';
        },
        (error: unknown) => {
          const detail = describeTelegramError(error);
          this.#o.log.warn('telegram: getMe failed', { error: detail });
          if (this.#state === 'connecting') {
            this.#state = 'error';
            this.#detail = pollFix(detail);
          }
        },
      );
      this.#subs.add(
        startTelegramPoller({
          channel: name,
          api: this.#pollApi,
          cursor: this.#o.store,
          pollTimeoutSeconds: this.#o.tuning?.pollTimeoutSeconds ?? 25,
          backoffMs: this.#o.tuning?.pollBackoffMs ?? 1000,
          handle: (u) => this.#onUpdate(u),
          onDuplicate: () => {
            this.#counts.duplicates += 1;
            this.#inbound.inc({ result: 'ignored', reason: 'duplicate' });
          },
          onPoll: (ok, detail) => {
            this.#lastPollAt = new Date().toISOString();
            this.#state = ok ? 'polling' : 'error';
            this.#detail = ok ? null : pollFix(detail);
            if (!ok) this.#o.log.warn('telegram: getUpdates failed', { error: detail });
          },
        }),
      );
    }
    if (this.#o.config !== undefined)
      this.#o.log.info('telegram: channel started', {
        state: this.#state,
        bindings: this.bindings.list().length,
        tokenSource: this.#tokenSource(),
      });
  }

  /** issue 14 from the phone: approvals of bound conversations are asked in their chats, answerable by button. */
  attachApprovals(approvals: TelegramApprovalPort): void {
    this.#approvals?.stop();
    this.#approvals = new TelegramApprovals({
      approvals,
      api: () => this.#sendApi,
      forChat: (chatId) => this.bindings.forChat(chatId),
      forTarget: (target) => this.bindings.forTarget(target),
      wakeTarget: (wakeToken) => this.#o.wakeOf?.(wakeToken)?.target,
      agentName: this.#o.agentName,
      language: this.#o.language ?? (() => 'en'),
      log: this.#o.log,
      counted: (accepted, reason) => {
        if (accepted) this.#counts.accepted += 1;
        else this.#counts.ignored += 1;
        this.#inbound.inc({ result: accepted ? 'accepted' : 'ignored', reason: accepted ? 'approval_answer' : reason });
      },
    });
  }

  /** issue 29 from the phone: the working status of a bound conversation carries Stop (telegram-stops.ts). */
  attachStops(turns: TelegramStopPort): void {
    this.#stops = new TelegramStops({
      turns,
      api: () => this.#sendApi,
      forChat: (chatId) => this.bindings.forChat(chatId),
      forTarget: (target) => this.bindings.forTarget(target),
      agentName: this.#o.agentName,
      language: this.#o.language ?? (() => 'en'),
      log: this.#o.log,
    });
    this.#subs.add(this.#o.bus.turnEnd$.subscribe((e) => this.#stops?.turnEnded(e.turnId)));
  }

  /** issue 25 from the phone: a chain paused in a bound conversation is a status line with Continue (telegram-chains.ts). */
  attachChains(chains: TelegramChainPort): void {
    this.#chains = new TelegramChains({
      chains,
      api: () => this.#sendApi,
      forChat: (chatId) => this.bindings.forChat(chatId),
      forTarget: (target) => this.bindings.forTarget(target),
      language: this.#o.language ?? (() => 'en'),
      log: this.#o.log,
    });
  }

  /** issue 25: a chain's hops or status changed (the `chain.updated` event). */
  chainChanged(chain: Chain): void {
    this.#chains?.chainChanged(chain);
  }

  stop(): void {
    this.#approvals?.stop();
    this.#subs.unsubscribe();
    for (const t of this.#typing.values()) t.unsubscribe();
    this.#typing.clear();
    this.#turnBus.complete();
  }

  status(): TelegramStatus {
    const cfg = this.#o.config;
    return {
      configured: cfg !== undefined,
      state: this.#state,
      detail: this.#detail,
      tokenSource: this.#tokenSource(),
      tokenEnv: cfg?.botTokenEnv ?? null,
      apiRoot: cfg?.apiRoot ?? DEFAULT_API_ROOT,
      bot: this.#bot,
      lastPollAt: this.#lastPollAt,
      lastSendAt: this.#lastSendAt,
      lastSendError: this.#lastSendError,
      warning: this.#warning,
      inbound: { accepted: this.#counts.accepted, ignored: this.#counts.ignored, duplicates: this.#counts.duplicates },
      outbound: {
        delivered: this.#counts.delivered,
        failedFinal: this.#counts.failedFinal,
        uncertain: this.#counts.uncertain,
      },
      bindings: this.bindings.list(),
    };
  }

  #tokenSource(): TelegramStatus['tokenSource'] {
    if (this.#token === null) return null;
    return this.#o.config?.botToken !== undefined ? 'config' : 'env';
  }

  /** One update from the chat: an operator message of the bound conversation, or ignored and counted. */
  #onUpdate(update: Update): void {
    if (update.callback_query !== undefined) {
      if (this.#stops?.handles(update.callback_query) === true) return this.#stops.onCallback(update.callback_query);
      if (this.#chains?.handles(update.callback_query) === true) return this.#chains.onCallback(update.callback_query);
      if (this.#approvals !== null) return this.#approvals.onCallback(update.callback_query);
      // Always answered, or the phone shows a spinner: nothing here takes button presses.
      void this.#sendApi?.answerCallbackQuery(update.callback_query.id).catch(() => undefined);
      return;
    }
    const m = update.message;
    const binding = m === undefined ? undefined : this.bindings.forChat(m.chat.id);
    const ignore = (reason: IgnoredReason) => {
      this.#counts.ignored += 1;
      this.#inbound.inc({ result: 'ignored', reason });
      this.#o.log.info('telegram: update ignored', { reason, updateId: update.update_id });
    };
    if (m === undefined || binding === undefined) return ignore('unbound_chat');
    if (m.from === undefined || !binding.allowFrom.has(m.from.id)) return ignore('not_allowed');
    if (typeof m.text !== 'string' || m.text.trim() === '') return ignore('not_text');
    // Idempotent by update_id: a replay of an update already stored stores nothing and wakes nobody.
    const posted = this.#o.post(binding.target, m.text, { inboundKey: `telegram:${update.update_id}` });
    if (posted.duplicate === true) {
      this.#counts.duplicates += 1;
      this.#inbound.inc({ result: 'ignored', reason: 'duplicate' });
      return;
    }
    this.#counts.accepted += 1;
    this.#inbound.inc({ result: 'accepted', reason: '' });
  }

  #onOutbound(e: ResponseOutboundEvent): void {
    if (e.purpose !== 'reply' || e.responseId.startsWith(MIRROR_PREFIX)) return;
    if (this.bindings.forTarget(e.target) === undefined) return;
    let p = this.#pending.get(e.responseId);
    if (p === undefined) {
      p = { turnId: e.turnId, agentId: e.agentId, target: e.target, chunks: [], delivered: 0 };
      this.#pending.set(e.responseId, p);
    }
    p.chunks[e.chunkIndex] = e.content;
  }

  #onResult(e: DeliveryResultEvent): void {
    if (e.channel === this.#o.name) {
      if (e.state === 'delivered') this.#counts.delivered += 1;
      else if (e.state === 'failed_final') this.#counts.failedFinal += 1;
      else this.#counts.uncertain += 1;
      return;
    }
    // Without a token nothing can reach the chat: Settings says so once, rather than an alert per reply.
    if (e.channel !== LOCAL_CHANNEL || e.purpose !== 'reply' || this.#sendApi === null) return;
    const p = this.#pending.get(e.responseId);
    if (p === undefined) return;
    // Not stored locally (its own alert says so), or a replay of one stored before: nothing to mirror now.
    if (e.state !== 'delivered' || e.ack === 'already_sent') {
      this.#pending.delete(e.responseId);
      return;
    }
    p.delivered += 1;
    if (p.delivered < e.chunkCount) return;
    this.#pending.delete(e.responseId);
    const text = `${this.#o.agentName(p.agentId)}: ${p.chunks.join('')}`;
    void this.#o.tracker
      .send({
        channel: this.#o.name,
        turnId: p.turnId,
        agentId: p.agentId,
        target: p.target,
        content: text,
        chunks: splitForTelegram(text, CHUNK_LIMIT),
        responseId: `${MIRROR_PREFIX}${e.responseId}`,
      })
      .catch((error: unknown) => this.#o.log.error('telegram: reply not handed to delivery', { error: String(error) }));
  }

  #postBeacon(b: Beacon): void {
    if (b.target === null || this.#sendApi === null) return;
    this.#stops?.beacon(b);
    void this.#o.tracker
      .send({
        channel: this.#o.name,
        turnId: b.turnId,
        agentId: b.agentId,
        target: b.target,
        content: `${this.#o.agentName(b.agentId)} · ${beaconText(b)}`,
        purpose: 'beacon',
        // Deterministic: the same beacon is never posted twice.
        responseId: `${MIRROR_PREFIX}beacon:${b.turnId}:${b.index}`,
      })
      .catch(() => undefined);
  }

  /** A delivery alert about a bound conversation, as a neutral notice in the chat (never as the agent). */
  #postAlert(a: DeliveryAlert): void {
    if (a.target === null || this.#sendApi === null || this.bindings.forTarget(a.target) === undefined) return;
    const where = a.channel === this.#o.name ? 'in this chat' : `in ${a.target}`;
    const text =
      a.kind === 'no_response'
        ? // issue 24: a status, worded like a beacon (`<agent> · …`), never like a reply (`<agent>: …`).
          `ℹ️ ${this.#o.agentName(a.agentId)} · ${this.#words().noResponse}`
        : a.kind === 'delivery_uncertain'
          ? `⚠️ ${a.message}: a reply from ${this.#o.agentName(a.agentId)} ${where} may not have arrived. It was not resent, to avoid a duplicate; the app has it.`
          : `⚠️ ${a.message}: a reply from ${this.#o.agentName(a.agentId)} ${where}.`;
    this.#postNotice(a.agentId, a.target, a.turnId ?? `alert_${a.id}`, `alert:${a.id}`, text);
  }

  /**
   * issue 27: a usage warning (80 % of a limit window or a daily budget) raised in a bound
   * conversation: a neutral notice there, in the chat's language, once (the alert's id).
   */
  usageWarning(agentId: string, alert: Alert, warning: UsageWarningFacts): void {
    if (alert.target === null || this.#sendApi === null || this.bindings.forTarget(alert.target) === undefined) return;
    const text = `⚠️ ${usageWarningWords(this.#o.agentName(agentId), warning, this.#o.language?.() ?? 'en')}`;
    this.#postNotice(agentId, alert.target, `usage_${alert.id}`, `alert:${alert.id}`, text);
  }

  /** issue 24: a bound wake that ended `failed`: its own notice, the reason in plain words and the fix. */
  #postFailed(e: WakeStatusEvent): void {
    if (this.#sendApi === null || this.bindings.forTarget(e.target) === undefined) return;
    const language = this.#o.language?.() ?? 'en';
    const reason = isFailureReason(e.reason) ? e.reason : 'runtime_error';
    // The recovery markers are saved with the terminal (one transaction): a continued failure says so.
    const continued = (this.#o.wakeOf?.(e.wakeToken)?.recoveries ?? 0) > 0;
    const words = failureWords(reason, language, { runtime: e.runtime, httpStatus: httpStatusOf(e.detail), continued });
    const status = continued ? STATUS_WORDS[language].interrupted : STATUS_WORDS[language].failed;
    const text = `⚠️ ${e.agentDisplayName} · ${status} — ${words}`;
    // Deterministic: one notice per wake, ever.
    this.#postNotice(e.agentId, e.target, `outcome_${e.wakeToken}`, `outcome:${e.wakeToken}`, text);
  }

  #words(): (typeof STATUS_WORDS)[PromptLanguage] {
    return STATUS_WORDS[this.#o.language?.() ?? 'en'];
  }

  /** A neutral notice in the chat (purpose `alert`: never a reply, never resets the watchdog). */
  #postNotice(agentId: string, target: string, turnId: string, id: string, content: string): void {
    void this.#o.tracker
      .send({
        channel: this.#o.name,
        turnId,
        agentId,
        target,
        content,
        purpose: 'alert',
        responseId: `${MIRROR_PREFIX}${id}`,
      })
      .catch(() => undefined);
  }

  /** `typing` while a bound turn runs: a courtesy only, it never resets the watchdog (spec A). */
  #startTyping(turnId: string, target: string, agentId: string): void {
    const chatId = this.bindings.forTarget(target)?.chatId;
    const api = this.#sendApi;
    if (chatId === undefined || api === null) return;
    const period = this.#o.tuning?.typingIntervalMs ?? 4500;
    const end$ = this.#o.bus.turnEnd$.pipe(filter((e) => e.turnId === turnId));
    const sub = interval(period)
      .pipe(startWith(0), takeUntil(end$))
      .subscribe(() => {
        if (this.#waitingTurns.has(turnId)) return;
        void api.sendChatAction(chatId, 'typing').then(
          () =>
            this.#turnBus.emit('message.delivered', {
              turnId,
              agentId,
              channel: this.#o.name,
              target,
              messageId: `typing:${turnId}`,
              kind: 'typing',
            }),
          () => undefined,
        );
      });
    this.#typing.set(turnId, sub);
  }
}

/** Response ids of what this service sends (replies, beacons, alerts) start with this. */
export const MIRROR_PREFIX = 'tg:';

function pollFix(detail: string | null): string {
  if (detail?.startsWith('401') === true)
    return 'Telegram refused the bot token (401). Check the token from @BotFather, then restart.';
  if (detail?.startsWith('409') === true)
    return 'Another program is polling this bot (409): stop it or remove its webhook, then restart.';
  return `Telegram is not reachable (${detail ?? 'unknown'}); retrying.`;
}

/** agentteam.json holds the token and is readable by other users: say how to fix it (never the token). */
function tokenFileWarning(cfg: TelegramChannelConfig | undefined, file: string): string | null {
  if (cfg?.botToken === undefined) return null;
  try {
    if ((statSync(file).mode & 0o077) === 0) return null;
  } catch {
    return null;
  }
  return `agentteam.json holds channels.telegram.botToken and other users can read it: run chmod 600 on it, or move the token to an environment variable named by botTokenEnv.`;
}
