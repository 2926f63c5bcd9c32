/**
 * issue 30: the daemon's answers (API, pushes, tool results) leave only once the writes they
 * report are durable. A real store whose WAL sync (the real fdatasync) is held shows it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fdatasync } from 'node:fs';
import { Subject } from 'rxjs';
import { afterDurable, durableApi, durableTools } from '../../../../main/daemon/durable-answers.js';
import { Store } from '../../../../main/daemon/store/index.js';
import type { WalSync } from '../../../../main/daemon/store/group-commit.js';
import type { ApiHandlers } from '../../../../shared/api/contract.js';
import type { CommunicationHandler } from '../../../../main/daemon/mcp/communication-handler.js';
import { targetKey } from '../../../../shared/target.js';
import { createRecordingLog } from '../../../fixtures/daemon-fake.js';
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

/** Turns of the loop until `cond` holds (the thread pool answers on its own time). */
const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setImmediate(r));
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

describe('afterDurable', () => {
  it('passes events at once when nothing waits, and in order after the sync otherwise', async () => {
    const source = new Subject<string>();
    const seen: string[] = [];
    afterDurable(source, store, createRecordingLog()).subscribe((e) => seen.push(e));
    source.next('idle'); // nothing pending: synchronous
    expect(seen).toEqual(['idle']);
    holding = true;
    post('a');
    source.next('after a');
    source.next('also after a');
    await turns();
    expect(held).toHaveLength(1);
    post('b'); // the next batch: its event waits for the next sync
    source.next('after b');
    expect(seen).toEqual(['idle']);
    await release();
    await until(() => seen.length === 4);
    expect(seen).toEqual(['idle', 'after a', 'also after a', 'after b']);
  });

  it('an event queued during a held sync is not released by it (it waits for its own)', async () => {
    const source = new Subject<string>();
    const seen: string[] = [];
    afterDurable(source, store, createRecordingLog()).subscribe((e) => seen.push(e));
    holding = true;
    post('a');
    source.next('a');
    await turns();
    post('b');
    source.next('b');
    // release only the first sync: hold the second
    const first = held.splice(0);
    for (const answer of first) answer();
    await until(() => seen.length > 0 && held.length > 0); // 'a' out, the second sync started
    expect(seen).toEqual(['a']);
    await release();
    await until(() => seen.length === 2);
    expect(seen).toEqual(['a', 'b']);
  });

  it('completes after the queued events are out', async () => {
    const source = new Subject<string>();
    const seen: string[] = [];
    let completed = false;
    afterDurable(source, store, createRecordingLog()).subscribe({
      next: (e) => seen.push(e),
      complete: () => (completed = true),
    });
    holding = true;
    post('x');
    source.next('x');
    source.complete();
    expect(completed).toBe(false);
    await release();
    await until(() => completed);
    expect(seen).toEqual(['x']);
    expect(completed).toBe(true);
  });
});
