/**
 * The thread calls of the API (issue 17): list the threads under a conversation with their reply
 * counts and root messages, and start (or reopen) the thread of a message. A thread's short id is
 * derived from its root message's id (shared/thread-root.ts), so starting the same message's
 * thread twice opens the same conversation.
 */
import { ApiError, type ApiHandlers, type ThreadSummary } from '../../../shared/api/contract.js';
import { formatTarget, parentOf, parseTarget, type TargetKey } from '../../../shared/target.js';
import { threadShortIdOf } from '../../../shared/thread-root.js';
import type { Store, ThreadRecord } from '../store/index.js';
import { toMessage } from './api-mappers.js';

type ThreadHandlers = Pick<ApiHandlers, 'threads.list' | 'threads.start'>;

export function createThreadApi(store: Store, parse: (text: string) => TargetKey): ThreadHandlers {
  const rootOf = (parent: TargetKey, thread: TargetKey): ThreadSummary['root'] => {
    const parsed = parseTarget(thread);
    const short = parsed.ok ? parsed.target.thread : null;
    const id = short === null ? undefined : store.threadRootId(parent, short);
    const message = id === undefined ? undefined : store.getMessage(id);
    return message === undefined
      ? null
      : toMessage(message, store.reactionsOf([message.id]).get(message.id), store.agentNames());
  };
  const summary = (t: ThreadRecord): ThreadSummary => ({
    target: t.target,
    parent: t.parent,
    root: rootOf(t.parent, t.target),
    replyCount: t.replyCount,
    lastReplyAt: t.lastReplyAt,
  });
  return {
    'threads.list': async ({ parent }) => {
      const key = parse(parent);
      const parsed = parseTarget(key);
      if (parsed.ok && parsed.target.thread !== null)
        throw new ApiError('invalid_target', `"${key}" is a thread; threads are listed under a channel or a DM.`);
      return store.listThreads(key).map(summary);
    },
    'threads.start': async ({ messageId }) => {
      const message = store.getMessage(messageId);
      if (message === undefined) throw new ApiError('unknown_message', `There is no message "${messageId}".`);
      const parsed = parseTarget(message.target);
      if (!parsed.ok || parsed.target.thread !== null)
        throw new ApiError(
          'invalid_target',
          `The message is already in a thread (${message.target}); reply there instead of starting a thread inside it.`,
        );
      const short = threadShortIdOf(message.id);
      if (short === null) throw new ApiError('unknown_message', `The message "${messageId}" cannot start a thread.`);
      const thread = formatTarget({ ...parentOf(parsed.target), thread: short });
      store.ensureConversation(thread);
      const record = store.listThreads(message.target).find((t) => t.target === thread);
      return summary(record ?? { target: thread, parent: message.target, replyCount: 0, lastReplyAt: null });
    },
  };
}
