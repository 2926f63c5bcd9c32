/**
 * The Codex RPC client typed by the generated protocol, against a fake app-server peer on two
 * streams: typed requests and results, notifications narrowed by method, server requests by
 * method, items by type — plus the compile-time checks that make string probing unnecessary.
 */
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CodexRpcClient,
  type RpcNotification,
  type RpcServerRequest,
} from '../../../../../../main/daemon/runtime/codex/codex-rpc-client.js';
import {
  isItem,
  isNotification,
  isServerRequest,
  type ClientRequestParams,
  type NotificationOf,
  type NotificationParams,
  type ServerRequestOf,
  type ServerRequestResponses,
  type ThreadItemOf,
  type TurnStatus,
} from '../../../../../../main/daemon/runtime/codex/codex-protocol.js';

interface Line {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

/** A fake `codex app-server`: reads our lines, answers with `reply`, and can push its own lines. */
function fakePeer(reply: (line: Line) => Line | null) {
  const toClient = new PassThrough();
  const fromClient = new PassThrough();
  const received: Line[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: fromClient }).on('line', (text) => {
    const line = JSON.parse(text) as Line;
    received.push(line);
    const answer = reply(line);
    if (answer !== null) toClient.write(`${JSON.stringify(answer)}\n`);
    waiters.splice(0).forEach((w) => w());
  });
  const push = (line: Line) => toClient.write(`${JSON.stringify(line)}\n`);
  const nextLine = () => new Promise<void>((resolve) => waiters.push(resolve));
  return { toClient, fromClient, received, push, nextLine };
}

const thread = { id: 'th-1', turns: [] };

describe('CodexRpcClient typed by the generated protocol', () => {
  it('a typed request carries the protocol params and resolves with the typed result', async () => {
    const peer = fakePeer((l) =>
      l.method === 'turn/start' ? { id: l.id, result: { turn: { id: 'tu-1', status: 'inProgress' } } } : null,
    );
    const client = new CodexRpcClient(peer.toClient, peer.fromClient, {
      onNotification: () => undefined,
      onServerRequest: () => ({ error: { code: -32601, message: 'none' } }),
    });
    const params: ClientRequestParams<'turn/start'> = {
      threadId: thread.id,
      input: [{ type: 'text', text: 'hello', text_elements: [] }],
    };
    const res = await client.request('turn/start', params);
    expect(peer.received).toEqual([{ id: 1, method: 'turn/start', params }]);
    if (!res.ok) throw new Error(res.error.message);
    expectTypeOf(res.result.turn.status).toEqualTypeOf<TurnStatus>();
    expect(res.result.turn.id).toBe('tu-1');
  });

  it('methods without params take none; the client notification is typed', async () => {
    const peer = fakePeer((l) => (l.id !== undefined ? { id: l.id, result: {} } : null));
    const client = new CodexRpcClient(peer.toClient, peer.fromClient, {
      onNotification: () => undefined,
      onServerRequest: () => ({ error: { code: -32601, message: 'none' } }),
    });
    const line = peer.nextLine();
    client.notify('initialized');
    await line;
    expect(await client.request('config/mcpServer/reload')).toEqual({ ok: true, result: {} });
    expect(peer.received.map((l) => l.method)).toEqual(['initialized', 'config/mcpServer/reload']);
    // The typed overload's params: turn/interrupt needs both ids (the untyped fallback overload is deprecated).
    expectTypeOf<{ threadId: string }>().not.toExtend<ClientRequestParams<'turn/interrupt'>>();
    expectTypeOf<{ threadId: string; turnId: string }>().toExtend<ClientRequestParams<'turn/interrupt'>>();
  });

  it('notifications arrive as the ServerNotification union and narrow by method, items by type', async () => {
    const peer = fakePeer(() => null);
    const seen: RpcNotification[] = [];
    let done: () => void = () => undefined;
    const completed = new Promise<void>((resolve) => (done = resolve));
    new CodexRpcClient(peer.toClient, peer.fromClient, {
      onNotification: (n) => {
        seen.push(n);
        if (n.method === 'turn/completed') done();
      },
      onServerRequest: () => ({ error: { code: -32601, message: 'none' } }),
    });
    peer.push({
      method: 'item/completed',
      params: {
        threadId: thread.id,
        turnId: 'tu-1',
        item: { type: 'mcpToolCall', id: 'i1', server: 'agentteam', tool: 'send_message', status: 'completed' },
      },
    });
    peer.push({ method: 'some/futureNotification', params: { x: 1 } });
    peer.push({
      method: 'turn/completed',
      params: { threadId: thread.id, turn: { id: 'tu-1', status: 'failed', error: { message: 'quota' } } },
    });
    await completed;
    expect(seen.map((n) => n.method)).toEqual(['item/completed', 'some/futureNotification', 'turn/completed']);

    const [item, future, end] = seen;
    if (item === undefined || future === undefined || end === undefined) throw new Error('missing notification');
    expect(isNotification(item, 'turn/completed')).toBe(false);
    expect(isNotification(future, 'turn/completed')).toBe(false);
    if (!isNotification(item, 'item/completed')) throw new Error('expected item/completed');
    expect(isItem(item.params.item, 'agentMessage')).toBe(false);
    if (!isItem(item.params.item, 'mcpToolCall')) throw new Error('expected an MCP tool call item');
    expect(`${item.params.item.server}/${item.params.item.tool}`).toBe('agentteam/send_message');
    expectTypeOf(item.params.item).toEqualTypeOf<ThreadItemOf<'mcpToolCall'>>();
    expectTypeOf(item.params.item.status).toEqualTypeOf<'inProgress' | 'completed' | 'failed'>();
    if (!isNotification(end, 'turn/completed')) throw new Error('expected turn/completed');
    expectTypeOf(end).toEqualTypeOf<NotificationOf<'turn/completed'>>();
    expectTypeOf(end.params).toEqualTypeOf<NotificationParams<'turn/completed'>>();
    expect(end.params.turn.status).toBe('failed');
    expect(end.params.turn.error?.message).toBe('quota');
  });

  it('server requests narrow by method and are answered with the typed response', async () => {
    const peer = fakePeer(() => null);
    const asked: RpcServerRequest[] = [];
    new CodexRpcClient(peer.toClient, peer.fromClient, {
      onNotification: () => undefined,
      onServerRequest: (r) => {
        asked.push(r);
        if (isServerRequest(r, 'item/commandExecution/requestApproval')) {
          expectTypeOf(r).toEqualTypeOf<ServerRequestOf<'item/commandExecution/requestApproval'>>();
          const result: ServerRequestResponses['item/commandExecution/requestApproval'] = { decision: 'decline' };
          return { result: { ...result, command: r.params.command } };
        }
        return { error: { code: -32601, message: r.method } };
      },
    });
    const answered = peer.nextLine();
    peer.push({
      id: 'srv-1',
      method: 'item/commandExecution/requestApproval',
      params: { threadId: thread.id, turnId: 'tu-1', itemId: 'i2', command: 'rm -rf /' },
    });
    await answered;
    expect(asked.map((r) => [r.id, r.method])).toEqual([['srv-1', 'item/commandExecution/requestApproval']]);
    expect(peer.received).toEqual([{ id: 'srv-1', result: { decision: 'decline', command: 'rm -rf /' } }]);
  });
});
