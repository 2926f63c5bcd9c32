/**
 * The Telegram channel's registry line (issue 39, channels/registry.ts): its name, its section of
 * agentteam.json (`channels.telegram`, shared/config.ts) and how it is built.
 */
import { TELEGRAM_CHANNEL, TelegramChannelSchema } from '../../../../shared/config.js';
import type { ChannelDescriptor } from '../channel-plugin.js';
import { TelegramService } from './telegram-service.js';

export const telegramChannel: ChannelDescriptor<typeof TelegramChannelSchema> = {
  name: TELEGRAM_CHANNEL,
  settingsSchema: TelegramChannelSchema,
  create: (context) => new TelegramService(context),
};
