/**
 * The renderer's WebSocket client against the real serve bridge (Node 24 has a global
 * WebSocket), with the scripted daemon double behind it: a transport test, not an e2e.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../../shared/api/contract.js';
import { startServeServer, type ServeServer } from '../../../../main/serve/serve-server.js';
import { createWsClient, wsUrlFor, type WsClient } from '../../../../renderer/src/api/ws-client.js';
import { createScriptedDaemon, wakeFixture, type ScriptedDaemon } from '../../../fixtures/scripted-daemon.js';

const TOKEN = 'k'.repeat(43);
const OPERATOR = 'O'.repeat(43);
let daemon: ScriptedDaemon;
let server: ServeServer;
let client: WsClient;

beforeEach(async () => {
  daemon = createScriptedDaemon();
  server = await startServeServer({ daemon, token: TOKEN, operatorKey: OPERATOR, port: 0, rendererDir: null });
  // As the page connects: the token and the operator key from the URL's fragment (issue 41: both needed).
  client = createWsClient(wsUrlFor({ protocol: 'http:', host: `127.0.0.1:${server.port}` }, TOKEN, OPERATOR));
});
afterEach(async () => {
  client.close();
  await server.close();
});

describe('renderer WebSocket client', () => {
  it('builds the ws URL from the page location', () => {
    expect(wsUrlFor({ protocol: 'http:', host: '127.0.0.1:7777' }, 'a b')).toBe('ws://127.0.0.1:7777/api?token=a%20b');
    expect(wsUrlFor({ protocol: 'http:', host: '127.0.0.1:7777' }, 't', 'k+1')).toBe(
      'ws://127.0.0.1:7777/api?token=t&operator=k%2B1',
    );
  });

  it('exposes one named method per call and answers with ApiResult values', async () => {
    const sent = await client.api.messages.send({ target: '#general', content: 'hello' });
    expect(sent).toEqual({ ok: true, value: { messageId: 'msg_1', seq: 1, target: '#general' } });
    const bad = await client.api.messages.send({ target: '#nowhere', content: 'x' });
    expect(bad).toMatchObject({ ok: false, code: 'unknown_target' });
    const invalid = await client.api.wakes.inspect({ wakeToken: '' });
    expect(invalid).toMatchObject({ ok: false, code: 'invalid_request' });
  });

  it('delivers pushed events, validated against the contract', async () => {
    const got = new Promise<ApiEvent>((resolve) => {
      const off = client.api.events.subscribe((e) => {
        if (e.name === 'wake.status') {
          off();
          resolve(e);
        }
      });
    });
    await client.api.agents.list({}); // the connection is open once a call has answered
    daemon.events.next({ name: 'wake.status', payload: wakeFixture({ wakeToken: 'w9', status: 'final_check_sent' }) });
    expect((await got).payload).toMatchObject({ wakeToken: 'w9', status: 'final_check_sent' });
  });

  it('reports the connection state', async () => {
    await client.api.agents.list({});
    expect(client.connection.get()).toBe('open');
    const closed = new Promise<string>((resolve) => client.connection.subscribe((s) => s === 'closed' && resolve(s)));
    await server.close();
    expect(await closed).toBe('closed');
  });
});
