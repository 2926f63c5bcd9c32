/**
 * issue 29: an answer larger than the CLI's WebSocket message limit is named as such, never
 * "is it shutting down?" (at 26 k conversations `agentteam send` said that). The server here
 * speaks the bridge's envelope only far enough to send one oversized answer.
 */
import { WebSocketServer } from 'ws';
import { afterEach, expect, it } from 'vitest';
import { WS_MAX_PAYLOAD_BYTES } from '../../../../shared/api/ws-protocol.js';
import { connectDaemon } from '../../../../main/serve/daemon-client.js';
import { writeServeState } from '../../../../main/serve/serve-state.js';
import { loadOrCreateToken } from '../../../../main/serve/token.js';
import { makeTempDir, type TempDir } from '../../../fixtures/temp-dir.js';

let dir: TempDir | null = null;
let server: WebSocketServer | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  dir?.remove();
});

it('a too-large answer names the limit; a plain close still asks whether the daemon is shutting down', async () => {
  dir = makeTempDir('agentteam-client-close-');
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server = wss;
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (ws) =>
    ws.on('message', (data) => {
      const { id, call } = JSON.parse(data.toString()) as { id: number; call: string };
      if (call === 'agents.list') ws.close(1001);
      else ws.send(JSON.stringify({ id, ok: true, value: 'x'.repeat(WS_MAX_PAYLOAD_BYTES + 1) }));
    }),
  );
  const address = wss.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await writeServeState(dir.path, { port: address.port, pid: process.pid, startedAt: new Date().toISOString() });
  await loadOrCreateToken(dir.path);

  const big = await connectDaemon(dir.path);
  if (!big.ok) throw new Error(big.message);
  expect(await big.client.call('conversations.list', {})).toEqual({
    ok: false,
    code: 'unavailable',
    message: `the daemon's answer was larger than the CLI accepts (${WS_MAX_PAYLOAD_BYTES} bytes per WebSocket message); ask for less (e.g. --limit or --target).`,
  });

  const closed = await connectDaemon(dir.path);
  if (!closed.ok) throw new Error(closed.message);
  expect(await closed.client.call('agents.list', {})).toMatchObject({
    ok: false,
    message: 'the daemon closed the connection; is it shutting down?',
  });
});
