/**
 * The text of one delivery outcome on a wake's timeline (watchdog spec B; issue 18), written by the
 * daemon (wake/wake-timeline.ts) and read back by the inspector's per-channel delivery (issue 40
 * item 7): one format, both directions, in one place. E.g. `delivered · 1 attempt`,
 * `telegram: failed_final chunk 2/3 · 2 attempts · http_502 · re-delivered`; the local channel has no prefix.
 */
import { LOCAL_CHANNEL as LOCAL } from './config.js';

/** A chunk's final state (bus/delivery-words.ts `ChunkFinal`). */
export type DeliveryFinal = 'delivered' | 'failed_final' | 'uncertain';

export interface DeliveryOutcome {
  readonly channel: string;
  readonly state: DeliveryFinal;
  readonly chunkIndex: number;
  readonly chunkCount: number;
  /** Channel send attempts made (1 = no retry). */
  readonly attempts: number;
  /** The stable failure code when not delivered, else null. */
  readonly failure: string | null;
  readonly redelivered: boolean;
}

export function deliveryDetail(r: DeliveryOutcome): string {
  const channel = r.channel === LOCAL ? '' : `${r.channel}: `;
  const chunk = r.chunkCount > 1 ? ` chunk ${r.chunkIndex + 1}/${r.chunkCount}` : '';
  const attempts = ` · ${r.attempts} attempt${r.attempts === 1 ? '' : 's'}`;
  const failure = r.failure !== null ? ` · ${r.failure}` : '';
  return `${channel}${r.state}${chunk}${attempts}${failure}${r.redelivered ? ' · re-delivered' : ''}`;
}

const DETAIL =
  /^(?:([a-z][a-z0-9_-]*): )?(delivered|failed_final|uncertain)(?: chunk (\d+)\/(\d+))? · (\d+) attempts?(?: · (?!re-delivered$)(.+?))?( · re-delivered)?$/s;

/** `deliveryDetail` read back; null for text it did not write. */
export function parseDeliveryDetail(detail: string | null): DeliveryOutcome | null {
  const m = detail === null ? null : DETAIL.exec(detail);
  if (m === null) return null;
  return {
    channel: m[1] ?? LOCAL,
    state: m[2] as DeliveryFinal,
    chunkIndex: m[3] === undefined ? 0 : Number(m[3]) - 1,
    chunkCount: m[4] === undefined ? 1 : Number(m[4]),
    attempts: Number(m[5]),
    failure: m[6] ?? null,
    redelivered: m[7] !== undefined,
  };
}

/** Per channel, in first-seen order: the attempts made in all, and the latest outcome (with its last error). */
export interface ChannelDelivery {
  readonly channel: string;
  readonly state: DeliveryFinal;
  readonly attempts: number;
  readonly lastError: string | null;
}

/**
 * issue 40 item 7: a wake's delivery per channel from its timeline's delivery details, oldest first:
 * a channel is `delivered` only when its latest outcome of every chunk is; the last error stays
 * shown after a later success (it is what the person asks about).
 */
export function deliveryByChannel(details: readonly (string | null)[]): ChannelDelivery[] {
  const byChannel = new Map<
    string,
    { chunks: Map<number, DeliveryFinal>; attempts: number; lastError: string | null }
  >();
  for (const d of details) {
    const o = parseDeliveryDetail(d);
    if (o === null) continue;
    let c = byChannel.get(o.channel);
    if (c === undefined) byChannel.set(o.channel, (c = { chunks: new Map(), attempts: 0, lastError: null }));
    c.chunks.set(o.chunkIndex, o.state);
    c.attempts += o.attempts;
    if (o.failure !== null) c.lastError = o.failure;
  }
  return [...byChannel].map(([channel, c]) => {
    const states = [...c.chunks.values()];
    const state: DeliveryFinal = states.includes('failed_final')
      ? 'failed_final'
      : states.includes('uncertain')
        ? 'uncertain'
        : 'delivered';
    return { channel, state, attempts: c.attempts, lastError: c.lastError };
  });
}
