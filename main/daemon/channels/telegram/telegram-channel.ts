/**
 * The Telegram channel (issue 18): one chunk of a response is one Bot API `sendMessage` to the
 * chat bound to the target; Telegram's `message_id` is the ACK. Telegram has no idempotency key,
 * so the channel is not idempotent: an ambiguous outcome becomes `uncertain` + alert in the
 * tracker, never a blind resend (watchdog spec B; DESIGN.md "Beyond the specs"). Beacons are
 * channel messages here (`beaconSurface: 'message'`), which never count as a reply.
 */
import type { Api } from 'grammy';
import type { Channel, ChannelSendRequest, ChannelSendResult } from '../../delivery/channel.js';
import { classifyTelegramError, describeTelegramError } from './telegram-api.js';
import { TELEGRAM_TEXT_LIMIT } from './telegram-text.js';

/** Shown before a re-delivered chunk (spec B preserveUndelivered), so the reader knows it is late. */
export const REDELIVERED_MARK = '↻ ';
/** Room a chunk leaves for the re-delivery mark, so a marked chunk still fits Telegram's limit. */
export const CHUNK_LIMIT = TELEGRAM_TEXT_LIMIT - REDELIVERED_MARK.length;

export interface TelegramChannelOptions {
  readonly name: string;
  readonly api: () => Api | null;
  /** The chat a target is bound to, if any. */
  readonly chatFor: (target: string) => number | undefined;
  /** Each send's outcome, for the health view (never the text). */
  readonly onOutcome?: (ok: boolean, detail: string | null) => void;
  /**
   * issue 30 (group commit): resolves once the daemon's writes so far are durable. A reply goes
   * to the chat only after it (and the agent's frontier) is on disk: Telegram cannot take it back.
   */
  readonly durable?: () => Promise<void>;
}

export class TelegramChannel implements Channel {
  readonly name: string;
  readonly idempotent = false;
  readonly beaconSurface = 'message' as const;

  constructor(private readonly o: TelegramChannelOptions) {
    this.name = o.name;
  }

  async send(request: ChannelSendRequest): Promise<ChannelSendResult> {
    const chatId = this.o.chatFor(request.target);
    if (chatId === undefined)
      return this.refused('unbound', `${request.target} is not bound to a Telegram chat any more`);
    const api = this.o.api();
    if (api === null) return this.refused('no_token', 'the Telegram channel has no bot token');
    const text = request.redelivered ? `${REDELIVERED_MARK}${request.content}` : request.content;
    try {
      await this.o.durable?.();
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.o.onOutcome?.(false, detail);
      return { ok: false, failure: { kind: 'store_unavailable', detail } };
    }
    try {
      const sent = await api.sendMessage(chatId, text, { link_preview_options: { is_disabled: true } });
      this.o.onOutcome?.(true, null);
      return { ok: true, status: 'sent', messageId: `tg:${chatId}:${sent.message_id}`, seq: null };
    } catch (error) {
      this.o.onOutcome?.(false, describeTelegramError(error));
      return { ok: false, failure: classifyTelegramError(error) };
    }
  }

  private refused(code: string, detail: string): ChannelSendResult {
    this.o.onOutcome?.(false, detail);
    return { ok: false, failure: { kind: 'rejected', code, detail } };
  }
}
