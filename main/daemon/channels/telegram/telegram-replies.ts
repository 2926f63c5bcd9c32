/**
 * Replies to a bound chat (issue 18): once an agent's reply is stored in the local conversation
 * (its local ACK, every chunk), it goes to the chat as its own response `tg:<response_id>` of the
 * same turn, `<agent>: …`, split at Telegram's limit, each chunk confirmed by Telegram's
 * `message_id` (watchdog spec B through the tracker). A replay (`already_sent`) is not resent.
 */
import { LOCAL_CHANNEL } from '../../../../shared/config.js';
import type { DeliveryResultEvent, ResponseOutboundEvent } from '../../bus/hook-events.js';
import type { ChannelContext } from '../channel-plugin.js';
import { CHUNK_LIMIT } from './telegram-channel.js';
import { MIRROR_PREFIX } from './telegram-notices.js';
import { splitForTelegram } from './telegram-text.js';

export interface TelegramRepliesOptions {
  readonly context: Pick<ChannelContext<unknown>, 'name' | 'tracker' | 'agentName' | 'log'>;
  readonly bound: (target: string) => boolean;
  readonly canSend: () => boolean;
}

interface PendingReply {
  readonly turnId: string;
  readonly agentId: string;
  readonly target: string;
  readonly chunks: string[];
  delivered: number;
}

export class TelegramReplies {
  readonly #o: TelegramRepliesOptions;
  /** Local replies of bound conversations waiting for their local ACK, by response_id. */
  readonly #pending = new Map<string, PendingReply>();

  constructor(o: TelegramRepliesOptions) {
    this.#o = o;
  }

  /** A chunk of a reply leaves for the local conversation: kept until all of it is stored there. */
  outbound(e: ResponseOutboundEvent): void {
    if (e.purpose !== 'reply' || e.responseId.startsWith(MIRROR_PREFIX) || !this.#o.bound(e.target)) return;
    let p = this.#pending.get(e.responseId);
    if (p === undefined) {
      p = { turnId: e.turnId, agentId: e.agentId, target: e.target, chunks: [], delivered: 0 };
      this.#pending.set(e.responseId, p);
    }
    p.chunks[e.chunkIndex] = e.content;
  }

  /** A local delivery outcome: the reply's last chunk stored sends the whole reply to the chat. */
  result(e: DeliveryResultEvent): void {
    // Without a token nothing can reach the chat: Settings says so once, rather than an alert per reply.
    if (e.channel !== LOCAL_CHANNEL || e.purpose !== 'reply' || !this.#o.canSend()) return;
    const p = this.#pending.get(e.responseId);
    if (p === undefined) return;
    // Not stored locally (its own alert says so), or a replay of one stored before: nothing to mirror now.
    if (e.state !== 'delivered' || e.ack === 'already_sent') {
      this.#pending.delete(e.responseId);
      return;
    }
    p.delivered += 1;
    if (p.delivered < e.chunkCount) return;
    this.#pending.delete(e.responseId);
    const { name, tracker, agentName, log } = this.#o.context;
    const text = `${agentName(p.agentId)}: ${p.chunks.join('')}`;
    void tracker
      .send({
        channel: name,
        turnId: p.turnId,
        agentId: p.agentId,
        target: p.target,
        content: text,
        chunks: splitForTelegram(text, CHUNK_LIMIT),
        responseId: `${MIRROR_PREFIX}${e.responseId}`,
      })
      .catch((error: unknown) => log.error('telegram: reply not handed to delivery', { error: String(error) }));
  }
}
