/**
 * issue 29 "Turns end" from the phone: the working status of a bound conversation carries a Stop
 * button. At a turn's first silence beacon in a chat (the "🧠 Working…" people see there), one
 * message "⏹ <agent> is working on this. Stop the turn?" is posted with **Stop** (`inline_keyboard`,
 * callback_data `st:<n>`: a short key, the turn is remembered here). A press from a user in that
 * binding's `allowFrom` is the operator (as for approvals, telegram-approvals.ts) and stops exactly
 * that turn through the daemon's own Stop (`agents.stop`'s service): its wakes end `failed` with
 * `stopped_by_operator`. Anyone else is told they are not allowed, and nothing changes. When the
 * turn ends (stopped or not) the message is edited and its button removed. Every press is answered.
 * Offers live in memory only: after a daemon restart a press on an old button says the turn ended.
 */
import type { Api } from 'grammy';
import type { CallbackQuery, User } from 'grammy/types';
import { ApiError } from '../../../shared/api/contract.js';
import type { PromptLanguage } from '../../../shared/config.js';
import type { DaemonLog } from '../daemon-log.js';
import type { Beacon } from '../watchdog/silence-beacons.js';
import type { EffectiveBinding } from './telegram-bindings.js';

/** The daemon's Stop (services/turn-deadlines.ts): throws `ApiError` when that turn is not running. */
export interface TelegramStopPort {
  stop(agentId: string, turnId?: string): void;
}

export interface TelegramStopsOptions {
  readonly turns: TelegramStopPort;
  readonly api: () => Api | null;
  readonly forChat: (chatId: number) => EffectiveBinding | undefined;
  readonly forTarget: (target: string) => EffectiveBinding | undefined;
  readonly agentName: (agentId: string) => string;
  readonly language: () => PromptLanguage;
  readonly log: DaemonLog;
}

const COPY = {
  en: {
    offer: '⏹ {agent} is working on this. Stop the turn?',
    stop: 'Stop',
    stoppedBy: '⏹ {agent}: stopped by {who}.',
    ended: '{agent} finished this turn.',
    done: 'Stopped.',
    notAllowed: 'You are not allowed to stop turns in this chat.',
    gone: 'That turn has already ended.',
  },
  'zh-CN': {
    offer: '⏹ {agent} 正在处理。要停止这一轮吗？',
    stop: '停止',
    stoppedBy: '⏹ {agent}：已由 {who} 停止。',
    ended: '{agent} 已结束这一轮。',
    done: '已停止。',
    notAllowed: '你无权在此聊天中停止轮次。',
    gone: '这一轮已经结束。',
  },
} as const satisfies Record<PromptLanguage, Record<string, string>>;

type CopyKey = keyof (typeof COPY)['en'];

const words = (lang: PromptLanguage, key: CopyKey, vars: Record<string, string> = {}): string =>
  COPY[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? '');

const DATA = /^st:(\d{1,12})$/;
const OFFERS_KEPT = 256;

interface Offer {
  readonly key: string;
  readonly agentId: string;
  readonly turnId: string;
  readonly chatId: number;
  readonly sent: Promise<number | null>;
}

export class TelegramStops {
  readonly #o: TelegramStopsOptions;
  /** By callback key (`st:<n>`), and the key of each turn offered. */
  readonly #offers = new Map<string, Offer>();
  readonly #byTurn = new Map<string, string>();
  #next = 1;

  constructor(o: TelegramStopsOptions) {
    this.#o = o;
  }

  /** Whether a button press is one of ours. */
  static handles(q: CallbackQuery): boolean {
    return typeof q.data === 'string' && q.data.startsWith('st:');
  }

  /** A beacon of a turn in a bound conversation: its first one posts the Stop offer in that chat. */
  beacon(b: Beacon): void {
    if (b.target === null || this.#byTurn.has(b.turnId)) return;
    const binding = this.#o.forTarget(b.target);
    const api = this.#o.api();
    if (binding === undefined || api === null) return;
    const lang = this.#o.language();
    const key = `st:${this.#next++}`;
    const sent = api
      .sendMessage(binding.chatId, words(lang, 'offer', { agent: this.#o.agentName(b.agentId) }), {
        reply_markup: { inline_keyboard: [[{ text: words(lang, 'stop'), callback_data: key }]] },
      })
      .then(
        (m) => m.message_id,
        (error: unknown) => {
          this.#o.log.warn('telegram: stop offer not posted', { error: String(error) });
          return null;
        },
      );
    this.#offers.set(key, { key, agentId: b.agentId, turnId: b.turnId, chatId: binding.chatId, sent });
    this.#byTurn.set(b.turnId, key);
    if (this.#offers.size > OFFERS_KEPT) {
      const oldest = this.#offers.keys().next().value as string;
      this.#byTurn.delete(this.#offers.get(oldest)?.turnId ?? '');
      this.#offers.delete(oldest);
    }
  }

  /** The turn ended (by itself or stopped): its offer loses its button. */
  turnEnded(turnId: string, stoppedBy: string | null = null): void {
    const key = this.#byTurn.get(turnId);
    const offer = key === undefined ? undefined : this.#offers.get(key);
    if (key === undefined || offer === undefined) return;
    this.#byTurn.delete(turnId);
    this.#offers.delete(key);
    const lang = this.#o.language();
    const agent = this.#o.agentName(offer.agentId);
    const text =
      stoppedBy === null ? words(lang, 'ended', { agent }) : words(lang, 'stoppedBy', { agent, who: stoppedBy });
    void offer.sent.then((messageId) => {
      const api = this.#o.api();
      if (messageId === null || api === null) return;
      // No reply_markup: Telegram removes the button.
      return api.editMessageText(offer.chatId, messageId, text).then(
        () => undefined,
        (error: unknown) => this.#o.log.warn('telegram: stop offer not edited', { error: String(error) }),
      );
    });
  }

  /** A press on a Stop button (operator-only, like an approval press). */
  onCallback(q: CallbackQuery): void {
    const lang = this.#o.language();
    const reply = (key: CopyKey) => {
      void this.#o
        .api()
        ?.answerCallbackQuery(q.id, { text: words(lang, key) })
        .catch(() => undefined);
    };
    const binding = q.message === undefined ? undefined : this.#o.forChat(q.message.chat.id);
    if (binding === undefined || !binding.allowFrom.has(q.from.id)) {
      this.#o.log.info('telegram: stop press refused', { fromId: q.from.id, reason: 'not_allowed' });
      return reply('notAllowed');
    }
    const key = DATA.exec(q.data ?? '')?.[0];
    const offer = key === undefined ? undefined : this.#offers.get(key);
    // Callback data is client-supplied: only an offer posted in this very chat can be pressed here.
    if (offer === undefined || offer.chatId !== binding.chatId) return reply('gone');
    try {
      this.#o.turns.stop(offer.agentId, offer.turnId);
    } catch (error) {
      if (error instanceof ApiError) {
        this.turnEnded(offer.turnId);
        return reply('gone');
      }
      throw error;
    }
    this.#o.log.info('telegram: turn stopped from the chat', { agentId: offer.agentId, turnId: offer.turnId });
    this.turnEnded(offer.turnId, userName(q.from));
    return reply('done');
  }
}

/** "@ann", else "Ann Lee". */
export function userName(u: User): string {
  if (u.username !== undefined && u.username !== '') return `@${u.username}`;
  return [u.first_name, u.last_name].filter((s) => s !== undefined && s !== '').join(' ') || String(u.id);
}
