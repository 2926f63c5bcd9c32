/**
 * One mechanism for the operator's buttons in a bound chat (Stop, issue 29; Continue, issue 25):
 * a status line posted once per subject (a turn, a chain) with one inline button whose
 * callback_data is a short key `<prefix>:<n>` (the subject is remembered here, in memory only: after
 * a daemon restart a press on an old button is "gone"), pressed by the operator only (a user in that
 * binding's `allowFrom`, as for approvals), and edited without its button once the subject settles.
 * Every press is answered; callback data is client-supplied, so only an offer posted in the very chat
 * pressed can be pressed there.
 */
import type { Api } from 'grammy';
import type { CallbackQuery, User } from 'grammy/types';
import type { DaemonLog } from '../../daemon-log.js';
import type { EffectiveBinding } from './telegram-bindings.js';

export interface InlineOffersOptions {
  /** The callback_data prefix, e.g. `st` → `st:12`. */
  readonly prefix: string;
  /** What the log lines call an offer, e.g. "stop offer". */
  readonly noun: string;
  readonly api: () => Api | null;
  readonly forChat: (chatId: number) => EffectiveBinding | undefined;
  readonly forTarget: (target: string) => EffectiveBinding | undefined;
  readonly log: DaemonLog;
  /** How many offers are remembered (the oldest are forgotten first). */
  readonly kept?: number;
}

export interface InlineOffer<T> {
  readonly subject: string;
  readonly chatId: number;
  readonly payload: T;
  readonly sent: Promise<number | null>;
}

/** A press: the operator's offer, or why not (answered by the caller in its own words). */
export type InlinePress<T> = { readonly offer: InlineOffer<T>; readonly who: string } | 'not_allowed' | 'gone';

const OFFERS_KEPT = 256;

export class InlineOffers<T> {
  readonly #o: InlineOffersOptions;
  readonly #data: RegExp;
  /** By callback key, and the key of each subject's current offer. */
  readonly #offers = new Map<string, InlineOffer<T>>();
  readonly #bySubject = new Map<string, string>();
  #next = 1;

  constructor(o: InlineOffersOptions) {
    this.#o = o;
    this.#data = new RegExp(`^${o.prefix}:(\\d{1,12})$`);
  }

  /** Whether a button press is one of this kind. */
  handles(q: CallbackQuery): boolean {
    return typeof q.data === 'string' && q.data.startsWith(`${this.#o.prefix}:`);
  }

  /** The subject's current offer, if one is shown. */
  current(subject: string): InlineOffer<T> | undefined {
    return this.#offers.get(this.#bySubject.get(subject) ?? '');
  }

  /** Posts `text` with one button in the chat bound to `target`; false when none is bound or Telegram is off. */
  post(subject: string, target: string, text: string, button: string, payload: T): boolean {
    const binding = this.#o.forTarget(target);
    const api = this.#o.api();
    if (binding === undefined || api === null) return false;
    const key = `${this.#o.prefix}:${this.#next++}`;
    const sent = api
      .sendMessage(binding.chatId, text, {
        reply_markup: { inline_keyboard: [[{ text: button, callback_data: key }]] },
      })
      .then(
        (m) => m.message_id,
        (error: unknown) => {
          this.#o.log.warn(`telegram: ${this.#o.noun} not posted`, { error: String(error) });
          return null;
        },
      );
    this.#offers.set(key, { subject, chatId: binding.chatId, payload, sent });
    this.#bySubject.set(subject, key);
    if (this.#offers.size > (this.#o.kept ?? OFFERS_KEPT)) {
      const oldest = this.#offers.keys().next().value as string;
      this.#bySubject.delete(this.#offers.get(oldest)?.subject ?? '');
      this.#offers.delete(oldest);
    }
    return true;
  }

  /** The subject settled: its offer is forgotten and its line edited to `text(payload)` without the button. */
  settle(subject: string, text: (payload: T) => string): void {
    const key = this.#bySubject.get(subject);
    const offer = key === undefined ? undefined : this.#offers.get(key);
    if (key === undefined || offer === undefined) return;
    this.#bySubject.delete(subject);
    this.#offers.delete(key);
    const edited = text(offer.payload);
    void offer.sent.then((messageId) => {
      const api = this.#o.api();
      if (messageId === null || api === null) return;
      // No reply_markup: Telegram removes the button.
      return api.editMessageText(offer.chatId, messageId, edited).then(
        () => undefined,
        (error: unknown) => this.#o.log.warn(`telegram: ${this.#o.noun} not edited`, { error: String(error) }),
      );
    });
  }

  /** Who pressed which offer: the operator's press of an offer of this chat, else why not. */
  press(q: CallbackQuery): InlinePress<T> {
    const binding = q.message === undefined ? undefined : this.#o.forChat(q.message.chat.id);
    if (binding === undefined || !binding.allowFrom.has(q.from.id)) {
      this.#o.log.info(`telegram: ${this.#o.noun} press refused`, { fromId: q.from.id, reason: 'not_allowed' });
      return 'not_allowed';
    }
    const key = this.#data.exec(q.data ?? '')?.[0];
    const offer = key === undefined ? undefined : this.#offers.get(key);
    if (offer === undefined || offer.chatId !== binding.chatId) return 'gone';
    return { offer, who: userName(q.from) };
  }

  /** Every press is answered, or the phone shows a spinner. */
  answer(q: CallbackQuery, text: string): void {
    void this.#o
      .api()
      ?.answerCallbackQuery(q.id, { text })
      .catch(() => undefined);
  }
}

/** "@ann", else "Ann Lee": how a chat line names who pressed or answered. */
export function userName(u: User): string {
  if (u.username !== undefined && u.username !== '') return `@${u.username}`;
  return [u.first_name, u.last_name].filter((s) => s !== undefined && s !== '').join(' ') || String(u.id);
}
