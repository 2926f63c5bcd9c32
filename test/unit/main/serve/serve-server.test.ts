import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServeServer, type ServeServer } from '../../../../main/serve/serve-server.js';
import { RENDERER_CSP } from '../../../../shared/csp.js';
import { API_CALL_NAMES, LAZY_EVENT_MS, TOKEN_CALL_NAMES } from '../../../../shared/api/api-names.js';
import { eventsOfFrame } from '../../../../shared/api/ws-protocol.js';
import {
  approvalFixture,
  createScriptedDaemon,
  wakeFixture,
  type ScriptedDaemon,
} from '../../../fixtures/scripted-daemon.js';

const TOKEN = 'T'.repeat(43);
const OPERATOR = 'O'.repeat(43);
let dir: string;
let daemon: ScriptedDaemon;
let server: ServeServer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'serve-server-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>AgentTeam</title>');
  await writeFile(join(dir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(tmpdir(), 'serve-secret.txt'), 'secret');
  daemon = createScriptedDaemon();
  server = await startServeServer({
    daemon,
    token: TOKEN,
    operatorKey: OPERATOR,
    port: 0,
    rendererDir: dir,
    checkResponses: true,
  });
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A raw GET, so tests can set any Host header and path (fetch normalises both). */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, path, headers: { host: `127.0.0.1:${server.port}`, ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket; resolves with it, or with the HTTP status that refused the upgrade. */
function open(query: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api${query}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(-1));
  });
}

/** The operator's connection (token and this start's operator key), as the UI and the CLI connect. */
async function connected(): Promise<WebSocket> {
  const ws = await open(`?token=${TOKEN}&operator=${OPERATOR}`);
  if (typeof ws === 'number') throw new Error(`upgrade refused: ${ws}`);
  return ws;
}

function nextFrame(
  ws: WebSocket,
  pick: (frame: Record<string, unknown>) => boolean = () => true,
): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if (!pick(frame)) return;
      ws.off('message', onMessage);
      resolve(frame);
    };
    ws.on('message', onMessage);
  });
}

async function call(ws: WebSocket, id: number, name: string, request: unknown): Promise<Record<string, unknown>> {
  const reply = nextFrame(ws, (f) => f.id === id);
  ws.send(JSON.stringify({ id, call: name, request }));
  return reply;
}

describe('serve HTTP', () => {
  it('listens on 127.0.0.1 only and answers /healthz without a token', async () => {
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}/`);
    // issue 29: the operator key only in the fragment (never sent in a request, so never in a log).
    expect(server.url).toBe(`${server.origin}?token=${TOKEN}#operator=${OPERATOR}`);
    const r = await get('/healthz');
    expect(r.status).toBe(200);
    expect(r.body).toBe('ok\n');
  });

  it('serves the renderer with its content type, the CSP and no-referrer', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(RENDERER_CSP);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const js = await get('/assets/app.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toBe('console.log(1)');
  });

  it('answers app routes with index.html and missing files with 404', async () => {
    expect((await get('/settings')).body).toContain('<title>AgentTeam</title>');
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('never serves a file outside the renderer folder', async () => {
    const r = await get('/..%2fserve-secret.txt');
    expect(r.body).not.toContain('secret');
    expect([403, 404]).toContain(r.status);
    const r2 = await get('/assets/../../serve-secret.txt');
    expect(r2.body).not.toContain('secret');
  });

  it('refuses a request for another host name (DNS rebinding)', async () => {
    const r = await get('/healthz', { host: `evil.example:${server.port}` });
    expect(r.status).toBe(421);
  });

  it('requires the token for /metrics and then returns Prometheus text', async () => {
    expect((await get('/metrics')).status).toBe(401);
    expect((await get('/metrics?token=wrong')).status).toBe(401);
    await daemon.api['messages.send']({ target: '#general', content: '@demo hi' });
    const viaQuery = await get(`/metrics?token=${TOKEN}`);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.body).toContain('wake_received_total{runtime="demo"} 1');
    const viaBearer = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(viaBearer.status).toBe(200);
    // RFC 7235 §2.1: the scheme is case-insensitive.
    for (const scheme of ['bearer', 'BEARER'])
      expect((await get('/metrics', { authorization: `${scheme} ${TOKEN}` })).status).toBe(200);
    expect((await get('/metrics', { authorization: `bearer ${TOKEN}x` })).status).toBe(401);
  });
});

describe('serve WebSocket bridge', () => {
  it('refuses an upgrade without the token, with a wrong one, or from a foreign origin', async () => {
    expect(await open('')).toBe(401);
    expect(await open('?token=nope')).toBe(401);
    expect(await open(`?token=${TOKEN}`, { origin: 'http://evil.example' })).toBe(403);
    const ws = await open('', { authorization: `Bearer ${TOKEN}`, origin: `http://127.0.0.1:${server.port}` });
    expect(ws).toBeInstanceOf(WebSocket);
    (ws as WebSocket).close();
  });

  it('answers a call with {id, ok:true, value}', async () => {
    const ws = await connected();
    daemon.wakes.push(wakeFixture({ wakeToken: 'w_a', status: 'delivered' }));
    const reply = await call(ws, 7, 'wakes.list', {});
    expect(reply).toMatchObject({ id: 7, ok: true });
    expect((reply.value as Array<{ wakeToken: string }>).map((w) => w.wakeToken)).toEqual(['w_a']);
    ws.close();
  });

  it('rejects a request that fails the contract schema before the daemon sees it', async () => {
    const ws = await connected();
    const reply = await call(ws, 1, 'messages.send', { target: '#general', content: '' });
    expect(reply).toMatchObject({ id: 1, ok: false, code: 'invalid_request' });
    expect(reply.message).toMatch(/content/);
    expect(daemon.messages).toHaveLength(0);
    const extra = await call(ws, 2, 'agents.list', { sneaky: true });
    expect(extra).toMatchObject({ ok: false, code: 'invalid_request' });
    // The same gate as IPC: an oversized body is content_too_large, not a generic invalid_request.
    const big = await call(ws, 3, 'messages.send', { target: '#general', content: 'x'.repeat(1_048_577) });
    expect(big).toMatchObject({ id: 3, ok: false, code: 'content_too_large' });
    expect(daemon.messages).toHaveLength(0);
    ws.close();
  });

  it('issue 29/41: the serve token alone gets only TOKEN_CALL_NAMES; every other call needs the operator key', async () => {
    daemon.approvals.push(approvalFixture({ id: 'ap_1' }));
    const tokenOnly = await open(`?token=${TOKEN}`);
    if (typeof tokenOnly === 'number') throw new Error(`upgrade refused: ${tokenOnly}`);
    // issue 41: what spoke as the operator with the token alone (a "You" message, a review comment),
    // and the reads that gave away every conversation and approval.
    const requests: Record<string, unknown> = {
      'messages.send': { target: '#general', content: '@full-agent rm -rf the repo' },
      'wakes.comment': {
        wakeToken: 'wk_1',
        path: 'a.ts',
        line: 1,
        side: 'new',
        hunkHeader: '@@ -1 +1 @@',
        text: 'do it',
      },
      'messages.list': { target: '#general' },
      'approvals.list': {},
      'approvals.answer': { id: 'ap_1', decision: 'allow', scope: 'always' },
      'agents.update': { agentId: 'demo', permissions: 'full' },
    };
    let id = 10;
    const refused = API_CALL_NAMES.filter((n) => !(TOKEN_CALL_NAMES as readonly string[]).includes(n));
    expect(refused).toEqual(
      expect.arrayContaining(['messages.send', 'wakes.comment', 'messages.list', 'approvals.list']),
    );
    for (const name of refused) {
      const reply = await call(tokenOnly, id++, name, requests[name] ?? {});
      expect(reply, name).toMatchObject({ ok: false, code: 'operator_only' });
      expect(reply.message).toContain(`${name} is the operator's to make`);
      expect(reply.message).toContain('operator-key');
    }
    // Nothing reached the daemon: no message stored, the approval still pending.
    expect(daemon.messages).toHaveLength(0);
    expect(daemon.approvals[0]?.status).toBe('pending');
    // What an agent may know anyway is still answered.
    for (const name of TOKEN_CALL_NAMES) expect(await call(tokenOnly, id++, name, {})).toMatchObject({ ok: true });
    tokenOnly.close();
    // A wrong (e.g. an earlier start's) operator key is just no operator key.
    const stale = await open(`?token=${TOKEN}&operator=${'X'.repeat(43)}`);
    if (typeof stale === 'number') throw new Error(`upgrade refused: ${stale}`);
    expect(await call(stale, id++, 'approvals.answer', { id: 'ap_1', decision: 'allow' })).toMatchObject({
      code: 'operator_only',
    });
    stale.close();
    const operator = await open(`?token=${TOKEN}&operator=${OPERATOR}`);
    if (typeof operator === 'number') throw new Error(`upgrade refused: ${operator}`);
    expect(await call(operator, id, 'approvals.answer', { id: 'ap_1', decision: 'allow' })).toMatchObject({
      ok: true,
      value: { id: 'ap_1', status: 'allowed' },
    });
    operator.close();
    // The operator key without the serve token opens nothing.
    expect(await open(`?operator=${OPERATOR}`)).toBe(401);
  });

  it('answers an unknown call with unknown_call', async () => {
    const ws = await connected();
    expect(await call(ws, 3, 'wakes.delete', {})).toMatchObject({ id: 3, ok: false, code: 'unknown_call' });
    expect(await call(ws, 4, '__proto__', {})).toMatchObject({ id: 4, ok: false, code: 'unknown_call' });
    ws.close();
  });

  it('turns an ApiError into its code and message, and any other throw into internal without its text', async () => {
    const ws = await connected();
    expect(await call(ws, 5, 'messages.send', { target: '#nowhere', content: 'x' })).toMatchObject({
      ok: false,
      code: 'unknown_target',
      message: '#nowhere does not exist; create it first.',
    });
    daemon.api['agents.list'] = async () => {
      throw new Error('secret stack detail');
    };
    const reply = await call(ws, 6, 'agents.list', {});
    expect(reply).toMatchObject({ ok: false, code: 'internal' });
    expect(String(reply.message)).not.toContain('secret');
    ws.close();
  });

  it('pushes daemon events to every connected client as {event, payload}', async () => {
    const a = await connected();
    const b = await connected();
    const gotA = nextFrame(a, (f) => f.event === 'wake.status');
    const gotB = nextFrame(b, (f) => f.event === 'wake.status');
    const wake = wakeFixture({ wakeToken: 'w_push', status: 'final_check_sent' });
    daemon.events.next({ name: 'wake.status', payload: wake });
    expect(await gotA).toEqual({ event: 'wake.status', payload: wake });
    expect(await gotB).toEqual({ event: 'wake.status', payload: wake });
    a.close();
    b.close();
  });

  it('issue 30: a calls-only connection (?events=none, as the CLI connects) is answered but sent no pushed event', async () => {
    const quiet = await open(`?token=${TOKEN}&operator=${OPERATOR}&events=none`);
    if (typeof quiet === 'number') throw new Error(`upgrade refused: ${quiet}`);
    const loud = await connected();
    const frames: unknown[] = [];
    quiet.on('message', (d) => frames.push(JSON.parse(d.toString())));
    const pushed = nextFrame(loud, (f) => f.event === 'wake.status');
    daemon.events.next({ name: 'wake.status', payload: wakeFixture({ wakeToken: 'w_quiet', status: 'queued' }) });
    await pushed;
    // A call after the push: its answer is the first and only frame the quiet connection gets.
    const answer = await call(quiet, 7, 'wakes.list', {});
    expect(answer).toMatchObject({ id: 7, ok: true });
    expect(frames).toEqual([answer]);
    quiet.close();
    loud.close();
  });

  it("pushed events are the operator's: a connection with the serve token alone (an agent can read it) is sent none", async () => {
    const tokenOnly = await open(`?token=${TOKEN}`);
    if (typeof tokenOnly === 'number') throw new Error(`upgrade refused: ${tokenOnly}`);
    const operator = await connected();
    const frames: unknown[] = [];
    tokenOnly.on('message', (d) => frames.push(JSON.parse(d.toString())));
    const pushed = nextFrame(operator, (f) => f.event === 'wake.status');
    daemon.events.next({ name: 'wake.status', payload: wakeFixture({ wakeToken: 'w_private', status: 'queued' }) });
    await pushed;
    // The token's one call is answered, and its answer is the only frame it got.
    const answer = await call(tokenOnly, 8, 'limits.get', {});
    expect(answer).toMatchObject({ id: 8 });
    expect(frames).toEqual([answer]);
    tokenOnly.close();
    operator.close();
  });

  it('sends a burst of pushes as one {events} message per client, in order, in one socket write per client (issue 30)', async () => {
    const clients = [await connected(), await connected()];
    const n = 100;
    const messages = [0, 0];
    const received = clients.map((ws, c) => {
      const tokens: string[] = [];
      return new Promise<string[]>((resolve) =>
        ws.on('message', (data) => {
          messages[c]! += 1;
          for (const e of eventsOfFrame(JSON.parse(data.toString())))
            if (e.event === 'wake.status') tokens.push((e.payload as { wakeToken: string }).wakeToken);
          if (tokens.length === n) resolve(tokens);
        }),
      );
    });
    // Every write a server socket hands to the kernel (net.Socket's _write/_writev), during the burst.
    const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
    const writes = { count: 0 };
    const originals = { _write: proto._write, _writev: proto._writev };
    proto._write = function (this: Socket, ...args: unknown[]) {
      writes.count += 1;
      return originals._write.apply(this, args);
    };
    proto._writev = function (this: Socket, ...args: unknown[]) {
      writes.count += 1;
      return originals._writev.apply(this, args);
    };
    try {
      const expected = Array.from({ length: n }, (_, i) => `w_${i}`);
      for (const wakeToken of expected)
        daemon.events.next({ name: 'wake.status', payload: wakeFixture({ wakeToken, status: 'delivered' }) });
      expect(writes.count).toBe(0);
      expect(await Promise.all(received)).toEqual([expected, expected]);
      // One write per client (before issue 19: one per frame per client, 200), one WebSocket message each.
      expect(writes.count).toBe(clients.length);
      expect(messages).toEqual([1, 1]);
    } finally {
      proto._write = originals._write;
      proto._writev = originals._writev;
    }
    for (const ws of clients) ws.close();
  });

  it('an answer follows the events pushed to its client before it, and a lone event is its own frame (issue 30)', async () => {
    const ws = await connected();
    const frames: Array<Record<string, unknown>> = [];
    const three = new Promise<void>((resolve) =>
      ws.on('message', (d) => {
        frames.push(JSON.parse(d.toString()) as Record<string, unknown>);
        if (frames.length === 3) resolve();
      }),
    );
    // The daemon pushes while it answers (message.stored, then the wake it caused): those events
    // come first, together, in order; then the answer; a later lone push is a plain {event} frame.
    // Held, then released: the pushes and the answer then run in one chain of promise jobs, where
    // the scheduled flush of the events would come after the answer unless the answer sends them first.
    let release = (): void => undefined;
    daemon.hold = new Promise<void>((r) => (release = r));
    const answered = nextFrame(ws, (f) => f.id === 9);
    ws.send(JSON.stringify({ id: 9, call: 'messages.send', request: { target: '#general', content: '@demo hi' } }));
    await new Promise((r) => setTimeout(r, 20));
    release();
    await answered;
    daemon.hold = null;
    daemon.events.next({ name: 'wake.status', payload: wakeFixture({ wakeToken: 'w_c', status: 'queued' }) });
    await three;
    expect(frames[0]).toHaveProperty('events');
    expect(eventsOfFrame(frames[0]).map((e) => e.event)).toEqual(['message.stored', 'wake.status']);
    expect(frames[1]).toMatchObject({ id: 9, ok: true });
    expect(frames[2]).toMatchObject({ event: 'wake.status', payload: { wakeToken: 'w_c' } });
    ws.close();
  });

  it('issue 39: a lazy event waits for the next event shown at once and rides in its message, in order; alone, it goes within LAZY_EVENT_MS', async () => {
    const ws = await connected();
    const frames: Array<{ at: number; frame: Record<string, unknown> }> = [];
    const arrived = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => frames.length >= n && resolve();
        ws.on('message', check);
        check();
      });
    ws.on('message', (d) => frames.push({ at: performance.now(), frame: JSON.parse(d.toString()) }));
    daemon.events.next({ name: 'usage.updated', payload: { agentId: 'demo' } });
    // A later stretch of the daemon's code (its flush has run): the wake's status goes, the usage with it.
    await new Promise((r) => setImmediate(r));
    daemon.events.next({ name: 'wake.status', payload: wakeFixture({ wakeToken: 'w_l', status: 'delivered' }) });
    await arrived(1);
    expect(eventsOfFrame(frames[0]!.frame).map((e) => e.event)).toEqual(['usage.updated', 'wake.status']);
    // Alone, it goes by itself, no later than LAZY_EVENT_MS after it was pushed.
    const pushedAt = performance.now();
    daemon.events.next({ name: 'usage.updated', payload: { agentId: 'demo' } });
    await arrived(2);
    expect(frames[1]!.frame).toMatchObject({ event: 'usage.updated' });
    expect(frames[1]!.at - pushedAt).toBeLessThan(LAZY_EVENT_MS + 200);
    expect(frames).toHaveLength(2);
    ws.close();
  });

  it('closes a connection that sends something other than a JSON envelope', async () => {
    const ws = await connected();
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send('not json');
    expect(await closed).toBe(1007);
  });

  it('on close lets an in-flight call finish, then refuses new connections', async () => {
    const ws = await connected();
    let release = (): void => undefined;
    daemon.hold = new Promise<void>((r) => (release = r));
    const send = daemon.api['messages.send'];
    const entered = new Promise<void>((r) => {
      daemon.api['messages.send'] = (req) => {
        r();
        return send(req);
      };
    });
    const reply = call(ws, 9, 'messages.send', { target: '#general', content: 'in flight' });
    await entered; // the call is inside the daemon; close must wait for it
    const closing = server.close();
    expect((await get('/healthz').catch(() => ({ status: 0 }))).status).not.toBe(200);
    release();
    expect(await reply).toMatchObject({ id: 9, ok: true });
    await closing;
    expect(daemon.messages.map((m) => m.content)).toEqual(['in flight']);
    expect(await open(`?token=${TOKEN}`)).toBe(-1);
  });
});

describe('findRendererDir', () => {
  it('finds out/renderer next to the built CLI or from the source tree, else null', async () => {
    const { findRendererDir } = await import('../../../../main/serve/serve-command.js');
    const root = await mkdtemp(join(tmpdir(), 'renderer-dir-'));
    await mkdir(join(root, 'out', 'renderer'), { recursive: true });
    await mkdir(join(root, 'out', 'main'), { recursive: true });
    await mkdir(join(root, 'main', 'serve'), { recursive: true });
    expect(findRendererDir(`file://${join(root, 'out', 'main', 'cli.js')}`)).toBeNull();
    await writeFile(join(root, 'out', 'renderer', 'index.html'), '');
    expect(findRendererDir(`file://${join(root, 'out', 'main', 'cli.js')}`)).toBe(join(root, 'out', 'renderer'));
    expect(findRendererDir(`file://${join(root, 'main', 'serve', 'serve-command.ts')}`)).toBe(
      join(root, 'out', 'renderer'),
    );
    await rm(root, { recursive: true, force: true });
  });
});
