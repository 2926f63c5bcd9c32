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
import type { CallbackQuery } from 'grammy/types';
import { ApiError } from '../../../../shared/api/contract.js';
import type { PromptLanguage } from '../../../../shared/config.js';
import type { DaemonLog } from '../../daemon-log.js';
import type { Beacon } from '../../watchdog/silence-beacons.js';
import type { EffectiveBinding } from './telegram-bindings.js';
import { InlineOffers } from './inline-offers.js';
import type { ChannelStopPort } from '../channel-plugin.js';

export interface TelegramStopsOptions {
  readonly turns: ChannelStopPort;
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

/** The offer's payload: whose turn. */
interface StopSubject {
  readonly agentId: string;
  readonly turnId: string;
}

export class TelegramStops {
  readonly #o: TelegramStopsOptions;
  /** Subject: the turn id. */
  readonly #offers: InlineOffers<StopSubject>;

  constructor(o: TelegramStopsOptions) {
    this.#o = o;
    this.#offers = new InlineOffers({ prefix: 'st', noun: 'stop offer', ...o });
  }

  /** Whether a button press is one of ours. */
  handles(q: CallbackQuery): boolean {
    return this.#offers.handles(q);
  }

  /** A beacon of a turn in a bound conversation: its first one posts the Stop offer in that chat. */
  beacon(b: Beacon): void {
    if (b.target === null || this.#offers.current(b.turnId) !== undefined) return;
    const lang = this.#o.language();
    const text = words(lang, 'offer', { agent: this.#o.agentName(b.agentId) });
    this.#offers.post(b.turnId, b.target, text, words(lang, 'stop'), { agentId: b.agentId, turnId: b.turnId });
  }

  /** The turn ended (by itself or stopped): its offer loses its button. */
  turnEnded(turnId: string, stoppedBy: string | null = null): void {
    const lang = this.#o.language();
    this.#offers.settle(turnId, ({ agentId }) => {
      const agent = this.#o.agentName(agentId);
      return stoppedBy === null ? words(lang, 'ended', { agent }) : words(lang, 'stoppedBy', { agent, who: stoppedBy });
    });
  }

  /** A press on a Stop button (operator-only, like an approval press). */
  onCallback(q: CallbackQuery): void {
    const reply = (key: CopyKey) => this.#offers.answer(q, words(this.#o.language(), key));
    const press = this.#offers.press(q);
    if (press === 'not_allowed') return reply('notAllowed');
    if (press === 'gone') return reply('gone');
    const { agentId, turnId } = press.offer.payload;
    try {
      this.#o.turns.stop(agentId, turnId);
    } catch (error) {
      if (error instanceof ApiError) {
        this.turnEnded(turnId);
        return reply('gone');
      }
      throw error;
    }
    this.#o.log.info('telegram: turn stopped from the chat', { agentId, turnId });
    this.turnEnded(turnId, press.who);
    return reply('done');
  }
}
