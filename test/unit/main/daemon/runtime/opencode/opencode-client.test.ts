import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpencodeClient, type OpencodeEvent } from '../../../../../../main/daemon/runtime/opencode/opencode-client.js';

const PASSWORD = 'pw-123';
const AUTH = `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString('base64')}`;
let server: Server | null = null;

async function serve(handler: (path: string, res: ServerResponse, body: string) => void): Promise<number> {
  server = createServer((req, res) => {
    if (req.headers.authorization !== AUTH) return void res.writeHead(401).end('{"error":"auth"}');
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handler(req.url ?? '/', res, body));
  });
  await new Promise<void>((resolve) => (server as Server).listen(0, '127.0.0.1', resolve));
  return ((server as Server).address() as AddressInfo).port;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

describe('OpencodeClient', () => {
  it('sends basic auth as user opencode; a 204 is null, JSON is parsed, errors are values', async () => {
    const port = await serve((path, res, body) => {
      if (path === '/session')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id: 'ses_1', echo: JSON.parse(body) }));
      if (path.endsWith('/prompt_async')) return void res.writeHead(204).end();
      res.writeHead(500).end('boom');
    });
    const client = new OpencodeClient(port, PASSWORD);
    expect(await client.call('POST', '/session', { title: 't' })).toEqual({
      ok: true,
      status: 200,
      body: { id: 'ses_1', echo: { title: 't' } },
    });
    expect(await client.call('POST', '/session/ses_1/prompt_async', { parts: [] })).toEqual({
      ok: true,
      status: 204,
      body: null,
    });
    expect(await client.call('GET', '/nope')).toMatchObject({ ok: false, status: 500 });
    expect(await new OpencodeClient(port, 'wrong').call('GET', '/session')).toMatchObject({ ok: false, status: 401 });
  });

  it('a refused connection is a status-0 failure, not a throw', async () => {
    const port = await serve(() => undefined);
    await new Promise<void>((resolve) => (server as Server).close(() => resolve()));
    server = null;
    expect(await new OpencodeClient(port, PASSWORD).call('GET', '/config')).toMatchObject({ ok: false, status: 0 });
  });

  it('parses SSE frames split across chunks and reports malformed ones as values', async () => {
    const port = await serve((path, res) => {
      if (path !== '/event') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"type":"server.connected","properties":{}}\n\n');
      res.write('data: {"type":"session.status","prop');
      res.write('erties":{"sessionID":"s","status":{"type":"busy"}}}\n\n');
      res.write('data: not json\n\n');
      res.end('data: {"type":"session.idle","properties":{"sessionID":"s"}}\n\n');
    });
    const events: OpencodeEvent[] = [];
    const bad: string[] = [];
    const stream = await new OpencodeClient(port, PASSWORD).events(
      (e) => events.push(e),
      (b) => bad.push(b.data),
    );
    expect(stream.ok).toBe(true);
    if (stream.ok) await stream.body.ended;
    expect(events.map((e) => e.type)).toEqual(['server.connected', 'session.status', 'session.idle']);
    expect(events[1]?.properties).toEqual({ sessionID: 's', status: { type: 'busy' } });
    expect(bad).toEqual(['not json']);
  });
});
