import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createThreadApi } from '../../../../../main/daemon/api/thread-api.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { ApiError } from '../../../../../shared/api/contract.js';
import { targetKey } from '../../../../../shared/target.js';
import { threadShortIdOf } from '../../../../../shared/thread-root.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

let dir: TempDir;
let store: Store;
let api: ReturnType<typeof createThreadApi>;
const general = targetKey('#general');

beforeEach(() => {
  dir = makeTempDir('agentteam-threads-');
  store = Store.open(dir.path);
  api = createThreadApi(store, targetKey);
});
afterEach(() => {
  store.close();
  dir.remove();
});

const post = (target: string, content: string) =>
  store.appendMessage({ target: targetKey(target), authorId: 'operator', authorKind: 'operator', content }).message;

describe('thread API (issue 17)', () => {
  it('derives an 8-character short id from both message id forms', () => {
    expect(threadShortIdOf('msg_3F2A9C1E-0000-4000-8000-000000000000')).toBe('3f2a9c1e');
    expect(threadShortIdOf('msg_r0123456789abcdef01234567')).toBe('r0123456');
    expect(threadShortIdOf('m_1')).toBeNull();
  });

  it('starts the thread of a message once, lists it under its parent with the root and the reply count', async () => {
    const root = post('#general', 'the root');
    post('#general', 'another');
    const started = await api['threads.start']({ messageId: root.id });
    expect(started.target).toBe(`#general:${threadShortIdOf(root.id)}`);
    expect(started).toMatchObject({ parent: '#general', replyCount: 0, lastReplyAt: null });
    expect(started.root?.id).toBe(root.id);
    // The same message opens the same thread.
    expect((await api['threads.start']({ messageId: root.id })).target).toBe(started.target);
    post(started.target, 'reply one');
    post(started.target, 'reply two');
    const listed = await api['threads.list']({ parent: general });
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ target: started.target, replyCount: 2, root: { content: 'the root' } });
    expect(listed[0]?.lastReplyAt).not.toBeNull();
  });

  it('a thread typed by hand lists with no root; a message inside a thread cannot start another', async () => {
    post('#general:abcd', 'typed');
    const listed = await api['threads.list']({ parent: general });
    expect(listed).toEqual([expect.objectContaining({ target: '#general:abcd', root: null, replyCount: 1 })]);
    const inner = post('#general:abcd', 'inner');
    await expect(api['threads.start']({ messageId: inner.id })).rejects.toMatchObject({ code: 'invalid_target' });
    await expect(api['threads.start']({ messageId: 'msg_nope' })).rejects.toBeInstanceOf(ApiError);
    await expect(api['threads.list']({ parent: '#general:abcd' })).rejects.toMatchObject({ code: 'invalid_target' });
  });
});
