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
import { ApiError, type Chain } from '../../../../shared/api/contract.js';
import type { PromptLanguage } from '../../../../shared/config.js';
import type { DaemonLog } from '../../daemon-log.js';
import type { EffectiveBinding } from './telegram-bindings.js';
import { InlineOffers } from './inline-offers.js';
import type { ChannelChainPort } from '../channel-plugin.js';

export interface TelegramChainsOptions {
  readonly chains: ChannelChainPort;
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

export class TelegramChains {
  readonly #o: TelegramChainsOptions;
  /** Subject: the chain id; payload: the hops its pause line names. */
  readonly #offers: InlineOffers<number>;
  /** The Continue press being answered, so the line it edits names who pressed. */
  #pressing: { readonly chainId: string; readonly who: string } | null = null;

  constructor(o: TelegramChainsOptions) {
    this.#o = o;
    this.#offers = new InlineOffers({ prefix: 'ch', noun: 'chain pause', ...o });
  }

  /** Whether a button press is one of ours. */
  handles(q: CallbackQuery): boolean {
    return this.#offers.handles(q);
  }

  /** A chain changed (`chain.updated`): a pause in a bound conversation is posted once; an open chain loses its button. */
  chainChanged(chain: Chain): void {
    const by = this.#pressing?.chainId === chain.chainId ? this.#pressing.who : null;
    if (chain.status !== 'paused') return this.#ended(chain.chainId, by);
    const shown = this.#offers.current(chain.chainId);
    if (shown?.payload === chain.hops) return;
    // Paused again at once (a Continue whose held wakes spent the new budget): a fresh line.
    if (shown !== undefined) this.#ended(chain.chainId, by);
    const lang = this.#o.language();
    const text = `⏸ ${pausedWords(lang, chain.hops)}.`;
    this.#offers.post(chain.chainId, chain.target, text, words(lang, 'continue'), chain.hops);
  }

  /** A press on Continue (operator-only, like Stop and the approval buttons). */
  onCallback(q: CallbackQuery): void {
    const reply = (key: CopyKey) => this.#offers.answer(q, words(this.#o.language(), key));
    const press = this.#offers.press(q);
    if (press === 'not_allowed') return reply('notAllowed');
    if (press === 'gone') return reply('gone');
    const chainId = press.offer.subject;
    // The rule's own `chain.updated` (synchronous) edits the line, naming who pressed.
    this.#pressing = { chainId, who: press.who };
    try {
      this.#o.chains.continueChain({ chainId });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Continued elsewhere already (the app, the CLI): the stale button goes.
      this.#ended(chainId, null);
      return reply('gone');
    } finally {
      this.#pressing = null;
    }
    this.#o.log.info('telegram: chain continued from the chat', { chainId });
    return reply('done');
  }

  /** The chain is open again: its pause line is edited and loses its button. */
  #ended(chainId: string, continuedBy: string | null): void {
    const lang = this.#o.language();
    const how = continuedBy === null ? words(lang, 'continued') : words(lang, 'continuedBy', { who: continuedBy });
    this.#offers.settle(chainId, (hops) => `▶ ${pausedWords(lang, hops)} · ${how}.`);
  }
}
