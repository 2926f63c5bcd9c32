/**
 * What the Telegram channel's `status` call answers (issue 18), and its `addBinding` and
 * `removeBinding` too: its health and bindings for the Settings page. Never the bot token.
 *
 * issue 39 "Plug-ins": the call itself is the channel's own (channels/telegram/telegram-calls.ts,
 * dispatched through the contract's one `channels.call`); only this answer's shape is shared,
 * because two zones read it: the channel checks what it answers with it, and the renderer's
 * Telegram form parses what it receives with it.
 */
import { z } from 'zod';

export const TelegramStatusSchema = z.object({
  /** `channels.telegram` exists in agentteam.json. */
  configured: z.boolean(),
  state: z.enum(['not_configured', 'no_token', 'connecting', 'polling', 'error']),
  /** Why the state is what it is, in words a person can act on; null when all is well. */
  detail: z.string().nullable(),
  tokenSource: z.enum(['config', 'env']).nullable(),
  /** The environment variable named by `botTokenEnv`, if any. */
  tokenEnv: z.string().nullable(),
  apiRoot: z.string(),
  bot: z.object({ id: z.number().int(), username: z.string().nullable() }).nullable(),
  lastPollAt: z.string().nullable(),
  lastSendAt: z.string().nullable(),
  lastSendError: z.string().nullable(),
  /** E.g. agentteam.json holds the token and is readable by others. */
  warning: z.string().nullable(),
  inbound: z.object({ accepted: z.number().int(), ignored: z.number().int(), duplicates: z.number().int() }),
  outbound: z.object({ delivered: z.number().int(), failedFinal: z.number().int(), uncertain: z.number().int() }),
  bindings: z.array(
    z.object({
      chatId: z.number().int(),
      target: z.string(),
      allowFrom: z.array(z.number().int()),
      /** `config`: agentteam.json (edit it there); `settings`: added in the Settings page. */
      source: z.enum(['config', 'settings']),
    }),
  ),
});
export type TelegramStatus = z.infer<typeof TelegramStatusSchema>;
