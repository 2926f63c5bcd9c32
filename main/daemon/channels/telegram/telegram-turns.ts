/**
 * The bound turns as the Telegram channel follows them (watchdog spec A on this channel): a
 * silence watchdog of its own over the turns of bound conversations, reset only by
 * Telegram-confirmed replies (operator-visible output on this channel); `typing` is sent while
 * the turn runs and never resets it (unless `resetOnTypingOnly`). issue 14: a turn waiting for the
 * operator's approval is operator-visible here too (its question is in the chat): no 🧠 beacon and
 * no "typing…" while it waits, and the silence clock restarts from zero after the answer.
 */
import type { Api } from 'grammy';
import { Subscription, filter, interval, startWith, takeUntil, type Observable } from 'rxjs';
import { HookBus } from '../../bus/hook-bus.js';
import type { Beacon } from '../../watchdog/silence-beacons.js';
import { silenceWatchdog } from '../../watchdog/silence-watchdog.js';
import type { ChannelContext } from '../channel-plugin.js';

export interface TelegramTurnsOptions {
  readonly context: Pick<ChannelContext<unknown>, 'name' | 'bus' | 'settingsFor'>;
  /** The chat a conversation is bound to, if any. */
  readonly chatFor: (target: string) => number | undefined;
  readonly api: Api | null;
  readonly typingIntervalMs: number;
}

export class TelegramTurns {
  /** Beacons of bound turns. */
  readonly beacon$: Observable<Beacon>;
  readonly #o: TelegramTurnsOptions;
  readonly #turnBus = new HookBus();
  readonly #typing = new Map<string, Subscription>();
  /** Turns waiting for the operator's approval: "typing…" would say the agent is working; it is not. */
  readonly #waitingTurns = new Set<string>();

  constructor(o: TelegramTurnsOptions) {
    this.#o = o;
    const { name, settingsFor } = o.context;
    this.beacon$ = silenceWatchdog({ bus: this.#turnBus, settingsFor: () => settingsFor(name).silenceWatchdog });
  }

  /** Follows the daemon's bus; the returned subscription ends it. */
  follow(): Subscription {
    const { bus, name } = this.#o.context;
    const subs = new Subscription();
    subs.add(
      bus.turnStart$.subscribe((e) => {
        if (e.target === undefined || this.#o.chatFor(e.target) === undefined) return;
        this.#turnBus.emit('turn.start', { ...e, channel: name });
        this.#startTyping(e.turnId, e.target, e.agentId);
      }),
    );
    subs.add(
      bus.turnEnd$.subscribe((e) => {
        this.#typing.get(e.turnId)?.unsubscribe();
        this.#typing.delete(e.turnId);
        this.#waitingTurns.delete(e.turnId);
        this.#turnBus.emit('turn.end', e);
      }),
    );
    subs.add(
      bus.approvalWait$.subscribe((e) => {
        if (e.waiting) this.#waitingTurns.add(e.turnId);
        else this.#waitingTurns.delete(e.turnId);
        this.#turnBus.emit('approval.wait', e);
      }),
    );
    subs.add(
      bus.messageDelivered$.pipe(filter((e) => e.channel === name)).subscribe((e) => {
        this.#turnBus.emit('message.delivered', e);
      }),
    );
    return subs;
  }

  stop(): void {
    for (const t of this.#typing.values()) t.unsubscribe();
    this.#typing.clear();
    this.#turnBus.complete();
  }

  /** `typing` while a bound turn runs: a courtesy only, it never resets the watchdog (spec A). */
  #startTyping(turnId: string, target: string, agentId: string): void {
    const chatId = this.#o.chatFor(target);
    const api = this.#o.api;
    if (chatId === undefined || api === null) return;
    const { bus, name } = this.#o.context;
    const end$ = bus.turnEnd$.pipe(filter((e) => e.turnId === turnId));
    const sub = interval(this.#o.typingIntervalMs)
      .pipe(startWith(0), takeUntil(end$))
      .subscribe(() => {
        if (this.#waitingTurns.has(turnId)) return;
        void api.sendChatAction(chatId, 'typing').then(
          () =>
            this.#turnBus.emit('message.delivered', {
              turnId,
              agentId,
              channel: name,
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
