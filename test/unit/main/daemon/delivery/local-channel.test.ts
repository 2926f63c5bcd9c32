import { describe, expect, it } from 'vitest';
import { LocalChannel } from '../../../../../main/daemon/delivery/local-channel.js';
import { MemoryStore } from '../../../../fixtures/memory-store.js';

const request = {
  turnId: 't1',
  agentId: 'claude',
  target: '#general',
  responseId: 'r1',
  chunkIndex: 0,
  chunkCount: 1,
  content: 'hello',
  redelivered: false,
  attempt: 1,
};

describe('LocalChannel', () => {
  it('appends to the store as the agent and ACKs with the message id and TargetSeq', async () => {
    const store = new MemoryStore();
    const channel = new LocalChannel(store);
    expect(await channel.send(request)).toEqual({ ok: true, status: 'sent', messageId: 'm1', seq: 1 });
    expect(store.messages[0]).toMatchObject({
      target: '#general',
      authorId: 'claude',
      authorKind: 'agent',
      content: 'hello',
      responseId: 'r1',
      chunkIndex: 0,
      redelivered: false,
    });
    expect(channel).toMatchObject({ name: 'local', idempotent: true, beaconSurface: 'status' });
  });

  it('is idempotent by response_id and chunk: a resend answers already_sent with the first message', async () => {
    const store = new MemoryStore();
    const channel = new LocalChannel(store);
    await channel.send(request);
    expect(await channel.send({ ...request, attempt: 2 })).toEqual({
      ok: true,
      status: 'already_sent',
      messageId: 'm1',
      seq: 1,
    });
    expect(await channel.send({ ...request, chunkIndex: 1 })).toMatchObject({
      status: 'sent',
      messageId: 'm2',
      seq: 2,
    });
    expect(store.messages).toHaveLength(2);
  });

  it('a failed append (rolled back) is a retryable store_unavailable failure, not an exception', async () => {
    const store = new MemoryStore();
    store.failNextAppends = 1;
    const result = await new LocalChannel(store).send(request);
    expect(result).toEqual({
      ok: false,
      failure: { kind: 'store_unavailable', detail: 'SQLITE_BUSY: database is locked' },
    });
    expect(store.messages).toEqual([]);
  });

  it("issue 16: a reply's RepliedUpToSeq reaches the append with the reply (one transaction); none when absent", async () => {
    const store = new MemoryStore();
    const channel = new LocalChannel(store);
    await channel.send({ ...request, repliedUpToSeq: 4 });
    await channel.send({ ...request, responseId: 'r2' });
    expect(store.messages[0]).toMatchObject({ responseId: 'r1', repliedUpToSeq: 4 });
    expect(store.messages[1]).not.toHaveProperty('repliedUpToSeq');
  });
});
