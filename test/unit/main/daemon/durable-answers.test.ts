/**
 * issue 30: the daemon's answers (API, tool results) leave only once the writes they report are
 * durable. A real store whose WAL sync (the real fdatasync) is held shows it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fdatasync } from 'node:fs';
import { durableApi, durableTools } from '../../../../main/daemon/durable-answers.js';
import { Store } from '../../../../main/daemon/store/index.js';
import type { WalSync } from '../../../../main/daemon/store/group-commit.js';
import type { ApiHandlers } from '../../../../shared/api/contract.js';
import type { CommunicationHandler } from '../../../../main/daemon/mcp/communication-handler.js';
import { targetKey } from '../../../../shared/target.js';
import { makeTempDir, type TempDir } from '../../../fixtures/temp-dir.js';

const general = targetKey('#general');

let dir: TempDir;
let store: Store;
/** Held sync answers; `failing` makes the next answers fail. */
let held: Array<() => void>;
let holding: boolean;
let failing: boolean;

/** The real fdatasync; while `holding`, its answer is kept (from the moment the sync starts) until released. */
const sync: WalSync = (fd, done) => {
  const error = failing ? Object.assign(new Error('EIO'), { code: 'EIO' }) : null;
  const real = new Promise<NodeJS.ErrnoException | null>((resolve) => fdatasync(fd, resolve));
  const answer = () => void real.then((err) => done(error ?? err));
  if (holding) held.push(answer);
  else answer();
};

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};
const release = async () => {
  while (held.length === 0) await turns(1);
  holding = false;
  for (const answer of held.splice(0)) answer();
};

beforeEach(async () => {
  dir = makeTempDir('agentteam-durable-answers-');
  held = [];
  holding = false;
  failing = false;
  store = Store.open(dir.path, { walSync: sync });
  store.ensureConversation(general);
  await store.whenDurable();
});
afterEach(() => {
  store.close();
  dir.remove();
});

const post = (content: string) =>
  store.appendMessage({ target: general, authorId: 'operator', authorKind: 'operator', content }).message;

describe('durableApi', () => {
  it('answers a call only after the sync of its writes returned', async () => {
    const api = durableApi({ 'messages.send': async () => post('hi') } as unknown as ApiHandlers, store);
    holding = true;
    let answered = false;
    const answer = (api as unknown as Record<string, (r: unknown) => Promise<unknown>>)['messages.send']?.({});
    void answer?.then(() => (answered = true));
    await turns();
    expect(held).toHaveLength(1); // the sync ran and is held
    expect(answered).toBe(false);
    await release();
    await answer;
    expect(answered).toBe(true);
  });

  it('a failed sync fails the call with a clear error; the message stays stored', async () => {
    const api = durableApi({ 'messages.send': async () => post('kept') } as unknown as ApiHandlers, store);
    failing = true;
    await expect(
      (api as unknown as Record<string, (r: unknown) => Promise<unknown>>)['messages.send']?.({}),
    ).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('durable') });
    expect(store.listMessages(general).map((m) => m.content)).toEqual(['kept']);
  });
});

describe('durableTools', () => {
  it('tells the agent `sent` only after its reply is durable', async () => {
    const handler: CommunicationHandler = {
      messageSend: async (_agent, args) => {
        const m = post(args.content);
        return { ok: true, status: 'sent', targetKey: general, seenUpToSeq: 0, messageId: m.id };
      },
      reaction: async () => ({ ok: true }),
    };
    holding = true;
    let result: unknown;
    const pending = durableTools(handler, store)
      .messageSend('claude', { target: general, content: 'reply', allowCrossTarget: false })
      .then((r) => (result = r));
    await turns();
    expect(result).toBeUndefined();
    await release();
    await pending;
    expect(result).toMatchObject({ status: 'sent' });
  });
});
