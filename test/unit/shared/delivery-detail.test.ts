/** issue 40 item 7: the timeline's delivery text, written by the daemon and read back per channel by the inspector. */
import { describe, expect, it } from 'vitest';
import { deliveryByChannel, deliveryDetail, parseDeliveryDetail } from '../../../shared/delivery-detail.js';

const outcome = {
  channel: 'telegram',
  state: 'failed_final' as const,
  chunkIndex: 1,
  chunkCount: 3,
  attempts: 2,
  failure: 'not_written: ENOTFOUND api.telegram.org',
  redelivered: true,
};

describe('delivery detail', () => {
  it('reads back what it wrote, on any channel, with or without chunk, failure and re-delivery', () => {
    for (const o of [
      outcome,
      { ...outcome, channel: 'local', chunkIndex: 0, chunkCount: 1, failure: null, redelivered: false },
      { ...outcome, state: 'uncertain' as const, redelivered: false },
    ])
      expect(parseDeliveryDetail(deliveryDetail(o))).toEqual(o);
    expect(parseDeliveryDetail('delivery_failed: Reply not delivered')).toBeNull();
    expect(parseDeliveryDetail(null)).toBeNull();
  });

  it('sums attempts per channel, keeps the last error after a later success, and fails a channel on any failed chunk', () => {
    expect(
      deliveryByChannel([
        'delivered · 1 attempt',
        'telegram: failed_final · 2 attempts · server_error',
        'telegram: delivered · 1 attempt · re-delivered',
        'slack: delivered chunk 1/2 · 1 attempt',
        'slack: failed_final chunk 2/2 · 2 attempts · http_502',
        'not a delivery line',
      ]),
    ).toEqual([
      { channel: 'local', state: 'delivered', attempts: 1, lastError: null },
      { channel: 'telegram', state: 'delivered', attempts: 3, lastError: 'server_error' },
      { channel: 'slack', state: 'failed_final', attempts: 3, lastError: 'http_502' },
    ]);
  });
});
