/**
 * The Telegram channel's own API calls (issue 18: its Settings form), declared with their
 * argument and answer schemas (issue 39 "Plug-ins"): the contract's one `channels.call` reaches
 * them as `{ channel: 'telegram', call: 'status' | 'addBinding' | 'removeBinding', args }`, and
 * channels/registry.ts parses `args` with the schema here before a handler runs.
 */
import { z } from 'zod';
import { TelegramStatusSchema, type TelegramStatus } from '../../../../shared/telegram-status.js';
import { channelCall, type ChannelCalls } from '../channel-plugin.js';
import type { TelegramBindings } from './telegram-bindings.js';

const ChatId = z
  .number()
  .int()
  .refine((n) => n !== 0, 'a Telegram chat id');

const AddBindingArgs = z
  .object({
    chatId: ChatId,
    target: z.string().min(1).max(200),
    allowFrom: z.array(z.number().int().positive()).min(1).max(1000),
  })
  .strict();

/** The calls, each answering the channel's status after it acted. */
export function telegramCalls(bindings: TelegramBindings, status: () => TelegramStatus): ChannelCalls {
  return {
    status: channelCall(z.object({}).strict(), TelegramStatusSchema, async () => status()),
    addBinding: channelCall(AddBindingArgs, TelegramStatusSchema, async (b) => {
      bindings.add(b);
      return status();
    }),
    removeBinding: channelCall(z.object({ chatId: ChatId }).strict(), TelegramStatusSchema, async ({ chatId }) => {
      bindings.remove(chatId);
      return status();
    }),
  };
}
