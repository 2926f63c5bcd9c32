/**
 * The Telegram channel's health for the Settings page (issue 18, its `status` call): where the bot
 * token comes from and the two Bot API clients built with it, the state and what to do about it,
 * the bot's identity, the last poll and send, and the inbound / outbound counts (also exported as
 * `agentteam_telegram_inbound_updates_total`). Never the token itself.
 */
import { statSync } from 'node:fs';
import type { Api } from 'grammy';
import { Counter, type Registry } from 'prom-client';
import type { TelegramStatus } from '../../../../shared/telegram-status.js';
import type { TelegramChannelConfig } from '../../../../shared/config.js';
import type { DeliveryResultEvent } from '../../bus/hook-events.js';
import type { DaemonLog } from '../../daemon-log.js';
import { createTelegramApi, DEFAULT_API_ROOT, describeTelegramError } from './telegram-api.js';

/** Timing knobs (tests make them small); the defaults suit the real Bot API. */
export type TelegramTuning = {
  /** Long-poll seconds (`getUpdates.timeout`). Default 25. */
  readonly pollTimeoutSeconds?: number;
  /** No answer within this time after a send was written: `timeout_after_send`. Default 15 s. */
  readonly sendTimeoutMs?: number;
  /** `sendChatAction typing` period while a bound turn runs (Telegram shows it ~5 s). Default 4.5 s. */
  readonly typingIntervalMs?: number;
  /** First backoff after a failed poll. Default 1 s. */
  readonly pollBackoffMs?: number;
};

export interface TelegramHealthOptions {
  /** `channels.telegram`, or undefined when agentteam.json has none. */
  readonly config: TelegramChannelConfig | undefined;
  readonly configFile: string;
  readonly env: NodeJS.ProcessEnv;
  readonly tuning: TelegramTuning;
  readonly registry: Registry;
  readonly log: DaemonLog;
}

export class TelegramHealth {
  /** Sends (replies, beacons, notices, buttons): a short timeout. Null without a token. */
  readonly sendApi: Api | null;
  /** Long polls: the poll's own timeout and some. Null without a token. */
  readonly pollApi: Api | null;
  readonly #o: TelegramHealthOptions;
  readonly #token: string | null;
  readonly #inbound: Counter<'result' | 'reason'>;
  readonly #warning: string | null;
  readonly #counts = { accepted: 0, ignored: 0, duplicates: 0, delivered: 0, failedFinal: 0, uncertain: 0 };
  #state: TelegramStatus['state'];
  #detail: string | null;
  #bot: TelegramStatus['bot'] = null;
  #lastPollAt: string | null = null;
  #lastSendAt: string | null = null;
  #lastSendError: string | null = null;

  constructor(o: TelegramHealthOptions) {
    this.#o = o;
    const cfg = o.config;
    const token = cfg?.botToken ?? (cfg?.botTokenEnv !== undefined ? (o.env[cfg.botTokenEnv] ?? null) : null);
    this.#token = token === '' ? null : token;
    const apiRoot = cfg?.apiRoot ?? DEFAULT_API_ROOT;
    const pollSeconds = o.tuning.pollTimeoutSeconds ?? 25;
    const api = (timeoutMs: number) =>
      this.#token === null ? null : createTelegramApi({ token: this.#token, apiRoot, timeoutMs });
    this.sendApi = api(o.tuning.sendTimeoutMs ?? 15_000);
    this.pollApi = api(pollSeconds * 1000 + 10_000);
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
  }

  get state(): TelegramStatus['state'] {
    return this.#state;
  }

  /** The bot's identity, and the first sign of health: a long poll may stay open for its whole timeout. */
  identify(): void {
    void this.pollApi?.getMe().then(
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
  }

  polled(ok: boolean, detail: string | null): void {
    this.#lastPollAt = new Date().toISOString();
    this.#state = ok ? 'polling' : 'error';
    this.#detail = ok ? null : pollFix(detail);
    if (!ok) this.#o.log.warn('telegram: getUpdates failed', { error: detail });
  }

  /** A send's outcome (never its text). */
  sent(ok: boolean, detail: string | null): void {
    this.#lastSendAt = new Date().toISOString();
    this.#lastSendError = ok ? null : detail;
  }

  /** An inbound update: `accepted`, or ignored for `reason` (`duplicate` counts as a duplicate). */
  inbound(result: 'accepted' | 'ignored', reason: string): void {
    if (result === 'accepted') this.#counts.accepted += 1;
    else if (reason === 'duplicate') this.#counts.duplicates += 1;
    else this.#counts.ignored += 1;
    this.#inbound.inc({ result, reason });
  }

  /** A delivery outcome on this channel. */
  delivered(e: DeliveryResultEvent): void {
    if (e.state === 'delivered') this.#counts.delivered += 1;
    else if (e.state === 'failed_final') this.#counts.failedFinal += 1;
    else this.#counts.uncertain += 1;
  }

  tokenSource(): TelegramStatus['tokenSource'] {
    if (this.#token === null) return null;
    return this.#o.config?.botToken !== undefined ? 'config' : 'env';
  }

  status(bindings: TelegramStatus['bindings']): TelegramStatus {
    const cfg = this.#o.config;
    const c = this.#counts;
    return {
      configured: cfg !== undefined,
      state: this.#state,
      detail: this.#detail,
      tokenSource: this.tokenSource(),
      tokenEnv: cfg?.botTokenEnv ?? null,
      apiRoot: cfg?.apiRoot ?? DEFAULT_API_ROOT,
      bot: this.#bot,
      lastPollAt: this.#lastPollAt,
      lastSendAt: this.#lastSendAt,
      lastSendError: this.#lastSendError,
      warning: this.#warning,
      inbound: { accepted: c.accepted, ignored: c.ignored, duplicates: c.duplicates },
      outbound: { delivered: c.delivered, failedFinal: c.failedFinal, uncertain: c.uncertain },
      bindings,
    };
  }
}

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
