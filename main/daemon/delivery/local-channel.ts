/**
 * The local conversation channel: a response chunk is delivered when the store has appended it
 * (the append is the ACK: message id + TargetSeq). The store deduplicates by
 * response_id + chunk index, so this channel is idempotent and any resend is safe.
 * Beacons here are status updates, never chat messages (UI.md, DESIGN.md "Beyond the specs").
 */
import { LOCAL_CHANNEL } from '../../../shared/config.js';
import { targetKey } from '../../../shared/target.js';
import type { Channel, ChannelSendRequest, ChannelSendResult } from './channel.js';
import type { MessageAppendPort } from './delivery-ports.js';

export class LocalChannel implements Channel {
  readonly name: string;
  readonly idempotent = true;
  readonly beaconSurface = 'status' as const;

  constructor(
    private readonly store: MessageAppendPort,
    name: string = LOCAL_CHANNEL,
  ) {
    this.name = name;
  }

  send(request: ChannelSendRequest): Promise<ChannelSendResult> {
    try {
      const appended = this.store.appendMessage({
        target: targetKey(request.target),
        authorId: request.agentId,
        authorKind: 'agent',
        content: request.content,
        responseId: request.responseId,
        chunkIndex: request.chunkIndex,
        redelivered: request.redelivered,
        ...(request.repliedUpToSeq === undefined ? {} : { repliedUpToSeq: request.repliedUpToSeq }),
      });
      return Promise.resolve({
        ok: true,
        status: appended.status,
        messageId: appended.message.id,
        seq: appended.message.seq,
      });
    } catch (error) {
      // The append is one SQLite transaction: when it throws, nothing was stored, so a retry is safe.
      const detail = error instanceof Error ? error.message : String(error);
      return Promise.resolve({ ok: false, failure: { kind: 'store_unavailable', detail: detail.slice(0, 200) } });
    }
  }
}
