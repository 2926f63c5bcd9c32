/**
 * issue 25 from the phone: a chain of agents paused at its hop budget (`limits.agentHops`) in a
 * bound conversation reaches the chat as a neutral status line, "⏸ Agents paused after 6
 * hand-offs.", with **Continue** (`inline_keyboard`, callback_data `ch:<n>`: a short key, the chain
 * is remembered here), as the Stop button does (telegram-stops.ts). A press from a user in that
 * binding's `allowFrom` is the operator and calls the same team service rule as `chains.continue`
 * (another budget, the held wakes admitted); anyone else is told they are not allowed, and nothing
 * changes. Once the chain is open again (from the chat, the app or the CLI) the line is edited and
 * its button removed. Every press is answered. Offers live in memory only: after a daemon restart
 * a press on an old button says the agents are no longer paused (the app's Continue still works).
 */
import type { Api } from 'grammy';
import type { CallbackQuery } from 'grammy/types';
import { ApiError, type Chain } from '../../../shared/api/contract.js';
import type { PromptLanguage } from '../../../shared/config.js';
import type { DaemonLog } from '../daemon-log.js';
import type { EffectiveBinding } from './telegram-bindings.js';
import { userName } from './telegram-stops.js';

/** The team service's Continue (`chains.continue`'s rule): throws `ApiError` when that chain is not paused. */
export interface TelegramChainPort {
  continueChain(request: { readonly chainId: string }): unknown;
}

export interface TelegramChainsOptions {
  readonly chains: TelegramChainPort;
  readonly api: () => Api | null;
  readonly forChat: (chatId: number) => EffectiveBinding | undefined;
  readonly forTarget: (target: string) => EffectiveBinding | undefined;
  readonly language: () => PromptLanguage;
  readonly log: DaemonLog;
}

const COPY = {
  en: {
    paused: 'Agents paused after {count} hand-offs',
    pausedOne: 'Agents paused after 1 hand-off',
    continue: 'Continue',
    continuedBy: 'continued by {who}',
    continued: 'continued',
    done: 'Continued.',
    notAllowed: 'You are not allowed to continue agents in this chat.',
    gone: 'These agents are no longer paused.',
  },
  'zh-CN': {
    paused: '智能体已在 {count} 次交接后暂停',
    pausedOne: '智能体已在 1 次交接后暂停',
    continue: '继续',
    continuedBy: '已由 {who} 继续',
    continued: '已继续',
    done: '已继续。',
    notAllowed: '你无权在此聊天中让智能体继续。',
    gone: '这些智能体已不再暂停。',
  },
} as const satisfies Record<PromptLanguage, Record<string, string>>;

type CopyKey = keyof (typeof COPY)['en'];

const words = (lang: PromptLanguage, key: CopyKey, vars: Record<string, string> = {}): string =>
  COPY[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? '');

/** "Agents paused after 6 hand-offs" (the app's status words, team-copy.ts `chain.paused`). */
const pausedWords = (lang: PromptLanguage, hops: number): string =>
  hops === 1 ? words(lang, 'pausedOne') : words(lang, 'paused', { count: String(hops) });

const DATA = /^ch:(\d{1,12})$/;
const OFFERS_KEPT = 256;

interface Offer {
  readonly key: string;
  readonly chainId: string;
  readonly hops: number;
  readonly chatId: number;
  readonly sent: Promise<number | null>;
}

export class TelegramChains {
  readonly #o: TelegramChainsOptions;
  /** By callback key (`ch:<n>`), and the key of each chain's current pause. */
  readonly #offers = new Map<string, Offer>();
  readonly #byChain = new Map<string, string>();
  #next = 1;
  /** The Continue press being answered, so the line it edits names who pressed. */
  #pressing: { readonly chainId: string; readonly who: string } | null = null;

  constructor(o: TelegramChainsOptions) {
    this.#o = o;
  }

  /** Whether a button press is one of ours. */
  static handles(q: CallbackQuery): boolean {
    return typeof q.data === 'string' && q.data.startsWith('ch:');
  }

  /** A chain changed (`chain.updated`): a pause in a bound conversation is posted once; an open chain loses its button. */
  chainChanged(chain: Chain): void {
    const by = this.#pressing?.chainId === chain.chainId ? this.#pressing.who : null;
    if (chain.status !== 'paused') return this.#ended(chain.chainId, by);
    const shown = this.#offers.get(this.#byChain.get(chain.chainId) ?? '');
    if (shown?.hops === chain.hops) return;
    // Paused again at once (a Continue whose held wakes spent the new budget): a fresh line.
    if (shown !== undefined) this.#ended(chain.chainId, by);
    const binding = this.#o.forTarget(chain.target);
    const api = this.#o.api();
    if (binding === undefined || api === null) return;
    const lang = this.#o.language();
    const key = `ch:${this.#next++}`;
    const text = `⏸ ${pausedWords(lang, chain.hops)}.`;
    const sent = api
      .sendMessage(binding.chatId, text, {
        reply_markup: { inline_keyboard: [[{ text: words(lang, 'continue'), callback_data: key }]] },
      })
      .then(
        (m) => m.message_id,
        (error: unknown) => {
          this.#o.log.warn('telegram: chain pause not posted', { error: String(error) });
          return null;
        },
      );
    this.#offers.set(key, { key, chainId: chain.chainId, hops: chain.hops, chatId: binding.chatId, sent });
    this.#byChain.set(chain.chainId, key);
    if (this.#offers.size > OFFERS_KEPT) {
      const oldest = this.#offers.keys().next().value as string;
      this.#byChain.delete(this.#offers.get(oldest)?.chainId ?? '');
      this.#offers.delete(oldest);
    }
  }

  /** A press on Continue (operator-only, like Stop and the approval buttons). */
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
      this.#o.log.info('telegram: continue press refused', { fromId: q.from.id, reason: 'not_allowed' });
      return reply('notAllowed');
    }
    const key = DATA.exec(q.data ?? '')?.[0];
    const offer = key === undefined ? undefined : this.#offers.get(key);
    // Callback data is client-supplied: only an offer posted in this very chat can be pressed here.
    if (offer === undefined || offer.chatId !== binding.chatId) return reply('gone');
    // The rule's own `chain.updated` (synchronous) edits the line, naming who pressed.
    this.#pressing = { chainId: offer.chainId, who: userName(q.from) };
    try {
      this.#o.chains.continueChain({ chainId: offer.chainId });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Continued elsewhere already (the app, the CLI): the stale button goes.
      this.#ended(offer.chainId, null);
      return reply('gone');
    } finally {
      this.#pressing = null;
    }
    this.#o.log.info('telegram: chain continued from the chat', { chainId: offer.chainId });
    return reply('done');
  }

  /** The chain is open again: its pause line is edited and loses its button. */
  #ended(chainId: string, continuedBy: string | null): void {
    const key = this.#byChain.get(chainId);
    const offer = key === undefined ? undefined : this.#offers.get(key);
    if (key === undefined || offer === undefined) return;
    this.#byChain.delete(chainId);
    this.#offers.delete(key);
    const lang = this.#o.language();
    const how = continuedBy === null ? words(lang, 'continued') : words(lang, 'continuedBy', { who: continuedBy });
    const text = `▶ ${pausedWords(lang, offer.hops)} · ${how}.`;
    void offer.sent.then((messageId) => {
      const api = this.#o.api();
      if (messageId === null || api === null) return;
      // No reply_markup: Telegram removes the button.
      return api.editMessageText(offer.chatId, messageId, text).then(
        () => undefined,
        (error: unknown) => this.#o.log.warn('telegram: chain pause not edited', { error: String(error) }),
      );
    });
  }
}
