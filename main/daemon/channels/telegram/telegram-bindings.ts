/**
 * The effective Telegram bindings: agentteam.json's (read-only here: the daemon never rewrites
 * it) plus those added in the Settings page (the store, under this channel's name: issue 39). Each
 * chat and each conversation is bound at most once, so an inbound message maps to one
 * conversation and a reply to one chat.
 */
import { ApiError } from '../../../../shared/api/contract.js';
import type { TelegramStatus } from '../../../../shared/telegram-status.js';
import { TelegramBindingSchema, duplicateBindings, type TelegramBinding } from '../../../../shared/config.js';
import { parseTarget, type TargetKey } from '../../../../shared/target.js';
import type { ChannelStore } from '../channel-plugin.js';

export interface EffectiveBinding {
  readonly chatId: number;
  readonly target: TargetKey;
  readonly allowFrom: ReadonlySet<number>;
  readonly source: 'config' | 'settings';
}

type BindingStore = Pick<
  ChannelStore,
  'listBindings' | 'addBinding' | 'removeBinding' | 'ensureConversation' | 'getConversation'
>;

export class TelegramBindings {
  #byChat = new Map<number, EffectiveBinding>();
  #byTarget = new Map<string, EffectiveBinding>();

  constructor(
    /** The channel's name: its key in the store. */
    private readonly channel: string,
    private readonly fromConfig: readonly TelegramBinding[],
    private readonly store: BindingStore,
  ) {
    this.reload();
  }

  forChat(chatId: number): EffectiveBinding | undefined {
    return this.#byChat.get(chatId);
  }

  forTarget(target: string): EffectiveBinding | undefined {
    const parsed = parseTarget(target);
    return parsed.ok ? this.#byTarget.get(parsed.key) : undefined;
  }

  list(): TelegramStatus['bindings'] {
    return [...this.#byChat.values()].map((b) => ({
      chatId: b.chatId,
      target: b.target,
      allowFrom: [...b.allowFrom],
      source: b.source,
    }));
  }

  /**
   * Adds a Settings-page binding; a clear `invalid_request` when it is malformed or binds a chat or
   * target twice, `invalid_target` when its conversation does not exist.
   */
  add(input: { chatId: number; target: string; allowFrom: readonly number[] }): void {
    const parsed = TelegramBindingSchema.safeParse(input);
    if (!parsed.success)
      throw new ApiError('invalid_request', `telegram binding: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const target = parseTarget(parsed.data.target);
    if (!target.ok) throw new ApiError('invalid_target', target.error.message);
    const clash = duplicateBindings([...this.#byChat.values(), { chatId: parsed.data.chatId, target: target.key }]);
    if (clash.length > 0)
      throw new ApiError(
        'invalid_request',
        `telegram binding: ${clash[0]?.message ?? 'bound twice'}; remove it first.`,
      );
    // issue 40 item 9: a binding names a conversation that exists — a typo must not create one
    // (the Settings form refuses it too; this is the daemon's own rule, for every caller).
    if (this.store.getConversation(target.key) === undefined)
      throw new ApiError(
        'invalid_target',
        `telegram binding: there is no conversation ${target.key}. Create it first (+ New channel), then bind it.`,
      );
    this.store.addBinding(this.channel, {
      chatId: String(parsed.data.chatId),
      target: target.key,
      allowFrom: parsed.data.allowFrom,
    });
    this.reload();
  }

  remove(chatId: number): void {
    const binding = this.#byChat.get(chatId);
    if (binding === undefined) throw new ApiError('invalid_request', `Chat ${chatId} is not bound.`);
    if (binding.source === 'config')
      throw new ApiError(
        'invalid_request',
        `Chat ${chatId} is bound in agentteam.json (channels.telegram.bindings); remove it there and restart.`,
      );
    this.store.removeBinding(this.channel, String(chatId));
    this.reload();
  }

  private reload(): void {
    const byChat = new Map<number, EffectiveBinding>();
    const byTarget = new Map<string, EffectiveBinding>();
    const put = (b: EffectiveBinding) => {
      // agentteam.json wins: a stored binding that clashes with it is not used.
      if (byChat.has(b.chatId) || byTarget.has(b.target)) return;
      byChat.set(b.chatId, b);
      byTarget.set(b.target, b);
    };
    for (const b of this.fromConfig) {
      const t = parseTarget(b.target);
      if (t.ok) put({ chatId: b.chatId, target: t.key, allowFrom: new Set(b.allowFrom), source: 'config' });
    }
    // Telegram's ids are numbers; the store keeps every channel's ids in their own form.
    for (const b of this.store.listBindings(this.channel)) {
      const t = parseTarget(b.target);
      const allowFrom = new Set(b.allowFrom.map(Number));
      if (t.ok) put({ chatId: Number(b.chatId), target: t.key, allowFrom, source: 'settings' });
    }
    for (const b of byChat.values()) this.store.ensureConversation(b.target);
    this.#byChat = byChat;
    this.#byTarget = byTarget;
  }
}
