/**
 * issue 23 "limits from the contract": a raised `limits.maxMessageBytes` (100 KB) reaches the
 * renderer through the shared API (`limits.get` over serve's WebSocket, read by the renderer's
 * own client and stores), so the composer's byte budget accepts a 40 KB message that the schema's
 * default (32 KB) would block, and the assembled daemon stores it; past the raised limit it still
 * refuses, naming it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { startServeServer, type ServeServer } from '../../../main/serve/serve-server.js';
import { createWsClient, type WsClient } from '../../../renderer/src/api/ws-client.js';
import { byteBudget } from '../../../renderer/src/compose/byte-budget.js';
import { AppState } from '../../../renderer/src/state/app-state.js';
import { manualFrames } from '../../fixtures/manual-frames.js';

const TOKEN = 'L'.repeat(43);
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('a raised limit (100 KB): the renderer learns it, the composer accepts 40 KB, and the daemon stores it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-limit-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }],
      limits: { maxMessageBytes: 102_400 },
    }),
  );
  const daemon: Daemon = await createDaemon({ dataDir: dir });
  cleanups.push(() => daemon.stop());
  const server: ServeServer = await startServeServer({
    daemon,
    token: TOKEN,
    operatorKey: 'O'.repeat(43),
    port: 0,
    rendererDir: null,
  });
  cleanups.push(() => server.close());
  const client: WsClient = createWsClient(
    `ws://127.0.0.1:${server.port}/api?token=${TOKEN}&operator=${'O'.repeat(43)}`,
  );
  cleanups.push(() => client.close());
  const state = new AppState(client.api, { frames: manualFrames().schedule, connection: client.connection });
  cleanups.push(state.start());

  // The first answer crosses a fresh WebSocket; at load 20 that alone can pass the default 1 s (issue 44).
  await vi.waitFor(() => expect(state.limits.value).toEqual({ maxMessageBytes: 102_400 }), { timeout: 10_000 });
  const content = 'é'.repeat(20 * 1024); // 40 KB in UTF-8
  expect(byteBudget(content)).toMatchObject({ bytes: 40_960, over: true }); // the schema's default blocks it
  expect(byteBudget(content, state.limits.value.maxMessageBytes)).toMatchObject({ over: false, show: false });

  expect(await state.messages.send('#general', content)).toBeNull();
  const stored = await daemon.api['messages.list']({ target: '#general' });
  expect(stored.messages.at(-1)?.content).toBe(content);

  const over = 'x'.repeat(102_401);
  expect(byteBudget(over, state.limits.value.maxMessageBytes).over).toBe(true);
  expect(await state.messages.send('#general', over)).toMatch(/at most 102400 /);
}, 30_000);
