import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  CodexRpcClient,
  RPC_CLOSED,
  type RpcNotification,
  type RpcServerRequest,
} from '../../../../../../main/daemon/runtime/codex/codex-rpc-client.js';

function setup(
  answer: (r: RpcServerRequest) => { result: unknown } | { error: { code: number; message: string } } = () => ({
    result: null,
  }),
) {
  const fromServer = new PassThrough();
  const toServer = new PassThrough();
  const written: Array<Record<string, unknown>> = [];
  let buffer = '';
  toServer.setEncoding('utf8');
  toServer.on('data', (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      written.push(JSON.parse(buffer.slice(0, i)) as Record<string, unknown>);
      buffer = buffer.slice(i + 1);
    }
  });
  const notifications: RpcNotification[] = [];
  const bad: string[] = [];
  let closed = false;
  const client = new CodexRpcClient(fromServer, toServer, {
    onNotification: (n) => notifications.push(n),
    onServerRequest: answer,
    onBadLine: (l) => bad.push(l),
    onClose: () => (closed = true),
  });
  const send = (msg: unknown) => fromServer.write(`${typeof msg === 'string' ? msg : JSON.stringify(msg)}\n`);
  return { client, send, written, notifications, bad, fromServer, isClosed: () => closed };
}

const TURN = { threadId: 't1', input: [] };
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('CodexRpcClient (newline JSON-RPC without a jsonrpc field)', () => {
  it('correlates responses to requests by id, in any order', async () => {
    const s = setup();
    const a = s.client.request('initialize', {
      clientInfo: { name: 'x', title: null, version: '0' },
      capabilities: null,
    });
    const b = s.client.request('thread/start', { cwd: '/' });
    await tick();
    expect(s.written.map((w) => w.method)).toEqual(['initialize', 'thread/start']);
    expect(s.written.every((w) => !('jsonrpc' in w))).toBe(true);
    s.send({ id: s.written[1]?.id, result: { thread: { id: 't1' } } });
    s.send({ id: s.written[0]?.id, error: { code: -1, message: 'nope' } });
    expect(await b).toEqual({ ok: true, result: { thread: { id: 't1' } } });
    expect(await a).toEqual({ ok: false, error: { code: -1, message: 'nope' } });
  });

  it('delivers notifications and answers server→client requests with the same id', async () => {
    const s = setup((r) =>
      r.method === 'item/fileChange/requestApproval'
        ? { result: { decision: 'decline' } }
        : { error: { code: -32601, message: 'no' } },
    );
    s.send({ method: 'turn/started', params: { turn: { id: 'u1' } } });
    s.send({ id: 'srv-7', method: 'item/fileChange/requestApproval', params: {} });
    s.send({ id: 8, method: 'something/else', params: {} });
    await tick();
    expect(s.notifications).toEqual([{ method: 'turn/started', params: { turn: { id: 'u1' } } }]);
    expect(s.written).toContainEqual({ id: 'srv-7', result: { decision: 'decline' } });
    expect(s.written).toContainEqual({ id: 8, error: { code: -32601, message: 'no' } });
  });

  it('reports non-JSON lines as bad lines and keeps going', async () => {
    const s = setup();
    s.send('WARNING: not json');
    s.send({ method: 'ok', params: null });
    await tick();
    expect(s.bad).toEqual(['WARNING: not json']);
    expect(s.notifications.map((n) => n.method)).toEqual(['ok']);
  });

  it('resolves pending requests with RPC_CLOSED when stdout closes, and refuses new ones', async () => {
    const s = setup();
    const pending = s.client.request('turn/start', TURN);
    s.fromServer.end();
    expect(await pending).toEqual({ ok: false, error: RPC_CLOSED });
    expect(s.isClosed()).toBe(true);
    expect(await s.client.request('turn/start', TURN)).toEqual({ ok: false, error: RPC_CLOSED });
  });
});

describe('CodexRpcClient on the bounded line reader (issue 29)', () => {
  it('a line over the cap is reported by its length and dropped; the next notification arrives', async () => {
    const fromServer = new PassThrough();
    const notifications: RpcNotification[] = [];
    const dropped: Array<{ chars: number; limit: number }> = [];
    new CodexRpcClient(
      fromServer,
      new PassThrough(),
      {
        onNotification: (n) => notifications.push(n),
        onServerRequest: () => ({ result: null }),
        onDroppedLine: (d) => dropped.push(d),
      },
      100,
    );
    const big = JSON.stringify({ method: 'item/agentMessage/delta', params: { delta: 'd'.repeat(200) } });
    fromServer.write(`${big.slice(0, 50)}`);
    fromServer.write(`${big.slice(50)}\n{"method":"thread/started","params":{}}\n`);
    await tick();
    expect(dropped).toEqual([{ chars: big.length, limit: 100 }]);
    expect(notifications.map((n) => n.method)).toEqual(['thread/started']);
  });
});
