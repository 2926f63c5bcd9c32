/**
 * issue 16 "Inputs": refusals name the real limit (bytes, the configured `limits.maxMessageBytes`),
 * and a WebSocket frame over the limit is answered with a coded error frame on an open socket.
 */
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WS_MAX_PAYLOAD_BYTES } from '../../../../shared/api/ws-protocol.js';
import { answerCall } from '../../../../main/daemon/api/api-gate.js';
import { startServeServer, type ServeServer } from '../../../../main/serve/serve-server.js';
import { createScriptedDaemon, type ScriptedDaemon } from '../../../fixtures/scripted-daemon.js';

const TOKEN = 'T'.repeat(43);
const quiet = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };
let daemon: ScriptedDaemon;
let server: ServeServer;

beforeEach(async () => {
  daemon = Object.assign(createScriptedDaemon(), { limits: { maxMessageBytes: 32_768 } });
  server = await startServeServer({ daemon, token: TOKEN, operatorKey: 'O'.repeat(43), port: 0, rendererDir: null });
});
afterEach(async () => {
  await server.close();
});

function frames(ws: WebSocket): Array<Record<string, unknown>> {
  const got: Array<Record<string, unknown>> = [];
  ws.on('message', (d) => got.push(JSON.parse(d.toString()) as Record<string, unknown>));
  return got;
}

async function until<T>(f: () => T | undefined): Promise<T> {
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the real limit, in bytes', () => {
  it('the API gate names the configured byte limit, not the schema cap in characters', async () => {
    const r = await answerCall(
      daemon.api,
      'messages.send',
      { target: '#general', content: 'é'.repeat(1_048_577) },
      quiet,
      { maxMessageBytes: 32_768 },
    );
    expect(r).toMatchObject({ ok: false, code: 'content_too_large' });
    const message = (r as { message: string }).message;
    expect(message).toContain('2097154 bytes');
    expect(message).toContain('at most 32768 bytes');
    expect(message).not.toMatch(/1048576|characters/);
  });

  it('a WebSocket frame over the limit gets a coded error for its call id; the socket stays usable', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api?token=${TOKEN}`);
    await new Promise((r) => ws.once('open', r));
    const got = frames(ws);
    let closed: number | null = null;
    ws.on('close', (code) => (closed = code));
    const content = 'x'.repeat(WS_MAX_PAYLOAD_BYTES);
    ws.send(JSON.stringify({ id: 41, call: 'messages.send', request: { target: '#general', content } }));
    const refusal = await until(() => got.find((f) => f.id === 41));
    expect(refusal).toMatchObject({ id: 41, ok: false, code: 'content_too_large' });
    expect(String(refusal.message)).toMatch(/at most 2097152 bytes and a message at most 32768 bytes/);
    expect(daemon.messages).toHaveLength(0);
    ws.send(JSON.stringify({ id: 42, call: 'limits.get', request: {} }));
    expect(await until(() => got.find((f) => f.id === 42))).toMatchObject({ id: 42, ok: true });
    expect(closed).toBeNull();
    ws.close();
  });

  it('issue 23: limits.get answers the daemon’s limit over the WebSocket, the schema default when it names none', async () => {
    const ask = async (port: number, id: number) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api?token=${TOKEN}`);
      await new Promise((r) => ws.once('open', r));
      const got = frames(ws);
      ws.send(JSON.stringify({ id, call: 'limits.get', request: {} }));
      const answer = await until(() => got.find((f) => f.id === id));
      ws.close();
      return answer;
    };
    const raised = Object.assign(createScriptedDaemon(), { limits: { maxMessageBytes: 102_400 } });
    const other = await startServeServer({
      daemon: raised,
      token: TOKEN,
      operatorKey: 'O'.repeat(43),
      port: 0,
      rendererDir: null,
    });
    const plain = await startServeServer({
      daemon: createScriptedDaemon(),
      token: TOKEN,
      operatorKey: 'O'.repeat(43),
      port: 0,
      rendererDir: null,
    });
    try {
      expect(await ask(other.port, 1)).toEqual({ id: 1, ok: true, value: { maxMessageBytes: 102_400 } });
      expect(await ask(plain.port, 2)).toEqual({ id: 2, ok: true, value: { maxMessageBytes: 32_768 } });
    } finally {
      await Promise.all([other.close(), plain.close()]);
    }
  });
});
