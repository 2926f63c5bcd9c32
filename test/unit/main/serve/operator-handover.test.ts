/**
 * issue 40 item 1: the operator hand-over across a restart of `agentteam serve`
 * (main/serve/operator-handover.ts). A page's secret of the previous start makes its connection the
 * operator's once; nothing an agent can read in the data dir — the previous start's key left in
 * clear by an unclean stop, the serve token, the recorded digests — grants it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPERATOR_HANDOVER_FILE, OperatorHandover } from '../../../../main/serve/operator-handover.js';
import { startServeServer } from '../../../../main/serve/serve-server.js';
import { loadOrCreateToken, newOperatorKey, writeOperatorKey } from '../../../../main/serve/token.js';
import type { DaemonLog } from '../../../../main/daemon/daemon-log.js';
import { createScriptedDaemon } from '../../../fixtures/scripted-daemon.js';

const log: DaemonLog = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };
const secret = () => randomBytes(32).toString('base64url');
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'operator-handover-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** One start: its key (in <data-dir>/operator-key, as serve writes it) and its hand-over. */
async function start(): Promise<{ key: string; handover: OperatorHandover }> {
  const key = newOperatorKey();
  await writeOperatorKey(dir, key);
  const handover = await OperatorHandover.open(dir, key, log);
  return { key, handover };
}

/** Every file of the data dir, whole and line by line: what an agent's process can read there. */
async function agentReadable(): Promise<string[]> {
  const texts: string[] = [];
  for (const name of await readdir(dir)) {
    const text = await readFile(join(dir, name), 'utf8');
    texts.push(text, text.trim(), ...text.split('\n').filter((l) => l !== ''));
  }
  return texts;
}

describe('operator hand-over', () => {
  it("grants the previous start's page, once, and nothing an agent can read in the data dir grants it", async () => {
    await loadOrCreateToken(dir);
    const a = await start();
    const tab = secret();
    expect(a.handover.exchange({ key: a.key, next: tab }, true)).toEqual({ operator: true, key: a.key });
    await a.handover.settled();
    // An unclean stop (kill -9): A's key stays in clear in operator-key; snapshot everything then.
    const files = await agentReadable();
    expect(files).toContain(a.key);
    expect(files.join('\n')).not.toContain(tab);
    expect((await stat(join(dir, OPERATOR_HANDOVER_FILE))).mode & 0o777).toBe(0o600);

    const b = await start();
    for (const text of files) {
      if (!/^[A-Za-z0-9_-]{32,128}$/.test(text)) continue;
      expect(b.handover.exchange({ secret: text, next: secret() }, false), 'a file as the secret').toEqual({
        operator: false,
      });
      expect(b.handover.exchange({ key: text, next: secret() }, false), 'a file as the key').toEqual({
        operator: false,
      });
    }
    // The tab's own secret: granted, with the new start's key …
    const next = secret();
    expect(b.handover.exchange({ key: a.key, secret: tab, next }, false)).toEqual({ operator: true, key: b.key });
    // … once: presented again (a copy of the tab's storage, a replay) it is refused.
    expect(b.handover.exchange({ secret: tab, next: secret() }, false)).toEqual({ operator: false });
    await b.handover.settled();

    // The next start honours the secret the tab gave this one, and only that start's.
    const c = await start();
    expect(c.handover.exchange({ secret: tab, next: secret() }, false)).toEqual({ operator: false });
    expect(c.handover.exchange({ secret: next, next: secret() }, false)).toEqual({ operator: true, key: c.key });
  });

  it('a reconnect within one start replaces the tab secret instead of piling them up', async () => {
    const a = await start();
    const first = secret();
    a.handover.exchange({ key: a.key, next: first }, true);
    const second = secret();
    a.handover.exchange({ key: a.key, secret: first, next: second }, true);
    await a.handover.settled();
    expect((await readFile(join(dir, OPERATOR_HANDOVER_FILE), 'utf8')).trim().split('\n')).toHaveLength(1);
    const b = await start();
    expect(b.handover.exchange({ secret: first, next: secret() }, false)).toEqual({ operator: false });
    expect(b.handover.exchange({ secret: second, next: secret() }, false)).toMatchObject({ operator: true });
  });

  it('over the WebSocket: a browser connection with the secret becomes the operator before its next frame; a client without an Origin (the CLI, a script) never hands over', async () => {
    const a = await start();
    const tab = secret();
    a.handover.exchange({ key: a.key, next: tab }, true);
    await a.handover.settled();
    const b = await start();
    const token = 'T'.repeat(43);
    const server = await startServeServer({
      daemon: createScriptedDaemon(),
      token,
      operatorKey: b.key,
      handover: b.handover,
      port: 0,
      rendererDir: null,
    });
    const frames = async (origin: string | undefined, sent: unknown[]) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api?token=${token}&operator=${a.key}`, {
        headers: origin === undefined ? {} : { origin },
      });
      await new Promise((r) => ws.once('open', r));
      const got: Array<Record<string, unknown>> = [];
      const done = new Promise<void>((resolve) =>
        ws.on('message', (d) => {
          const f = JSON.parse(String(d)) as Record<string, unknown>;
          if (!('id' in f)) return;
          got.push(f);
          if (got.length === sent.length) resolve();
        }),
      );
      for (const f of sent) ws.send(JSON.stringify(f));
      await done;
      ws.close();
      return got;
    };
    try {
      const handover = { id: 1, call: 'operator.handover', request: { key: a.key, secret: tab, next: secret() } };
      const list = { id: 2, call: 'agents.list', request: {} };
      const cli = await frames(undefined, [handover, list]);
      expect(cli[0]).toMatchObject({ id: 1, ok: true, value: { operator: false } });
      expect(cli[1]).toMatchObject({ id: 2, ok: false, code: 'operator_only' });
      // The same secret from a page: granted (the CLI's try spent nothing), and the call right after it is answered.
      const page = await frames(`http://127.0.0.1:${server.port}`, [handover, list]);
      expect(page[0]).toEqual({ id: 1, ok: true, value: { operator: true, key: b.key } });
      expect(page[1]).toMatchObject({ id: 2, ok: true });
    } finally {
      await server.close();
    }
  });
});

it('keeps the digests file free of anything but digests', async () => {
  const a = await start();
  const tab = secret();
  a.handover.exchange({ key: a.key, next: tab }, true);
  await a.handover.settled();
  const text = await readFile(join(dir, OPERATOR_HANDOVER_FILE), 'utf8');
  expect(text).toMatch(/^[0-9a-f]{64}\n$/);
  expect(text).not.toContain(tab);
});
