/**
 * issue 24, through the assembled daemon and the demo runtime (real MCP, real SQLite):
 * - contract §10.1: a wake carries the agent's technical name, display name and model as the
 *   daemon resolved them when it accepted the wake — in `wakes.list` (what `agentteam wakes
 *   --json` prints), the `wake.status` push, the journal (a reopened store) and the terminal
 *   info log line — and the agent id is never a metric label;
 * - contract §8.3: an explicit cross-target send (`allow_cross_target`) is audited with the wake
 *   being handled: `audit.list` (what `agentteam audit` prints) and that wake's `wakes.inspect`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplaySubject, filter, firstValueFrom } from 'rxjs';
import { afterEach, expect, it } from 'vitest';
import type { Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon, type DaemonLog } from '../../../main/daemon/index.js';
import { Store } from '../../../main/daemon/store/index.js';
import { wakeJson } from '../../../main/serve/cli-main.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

interface Line {
  readonly message: string;
  readonly fields: Record<string, unknown> | undefined;
}

async function start(): Promise<{ daemon: Daemon; dir: string; info: Line[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-fields-'));
  dirs.push(dir);
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [{ id: 'demo', name: 'Demo Bot', runtime: 'demo', model: 'demo-model-1', env: { DEMO_TASK_MS: '0' } }],
    }),
  );
  const info: Line[] = [];
  const log: DaemonLog = {
    debugEnabled: false,
    info: (message, fields) => info.push({ message, fields }),
    warn: () => undefined,
    error: () => undefined,
    debug: () => undefined,
  };
  const daemon = await createDaemon({ dataDir: dir, log });
  daemons.push(daemon);
  return { daemon, dir, info };
}

/** Sends as the operator; resolves with the terminal `wake.status` push of the wake it caused. */
async function settle(daemon: Daemon, target: string, content: string): Promise<Wake> {
  const ended = new ReplaySubject<Wake>();
  const sub = daemon.events$.subscribe((e) => {
    if (e.name === 'wake.status' && isTerminal(e.payload.status)) ended.next(e.payload);
  });
  try {
    const sent = await daemon.api['messages.send']({ target, content });
    return await firstValueFrom(ended.pipe(filter((w) => w.messageId === sent.messageId)));
  } finally {
    sub.unsubscribe();
  }
}

const FIELDS = { agentId: 'demo', agentTechnicalName: 'demo', agentName: 'Demo Bot', model: 'demo-model-1' };

it('§10.1: the names and model reach wakes.list, wake.status, the journal and the info line; never a metric label', async () => {
  const { daemon, dir, info } = await start();
  const pushed = await settle(daemon, '#general', '@demo hello');
  expect(pushed).toMatchObject({ ...FIELDS, status: 'reply_sent', runtime: 'demo' });
  const [listed] = await daemon.api['wakes.list']({ target: '#general' });
  expect(listed).toMatchObject(FIELDS);
  // `agentteam wakes --json` prints the same fields.
  expect(wakeJson(listed as Wake)).toMatchObject(FIELDS);
  // The terminal info line carries them too.
  expect(info.filter((l) => l.message === 'wake status').map((l) => l.fields)).toEqual([
    expect.objectContaining({
      wakeToken: pushed.wakeToken,
      agentId: 'demo',
      agentName: 'demo',
      agentDisplayName: 'Demo Bot',
      runtime: 'demo',
      model: 'demo-model-1',
      target: '#general',
      status: 'reply_sent',
    }),
  ]);
  const metrics = await daemon.metrics.metrics();
  expect(metrics).toMatch(/wake_reply_sent_total\{runtime="demo"\} 1/);
  expect(metrics).not.toMatch(/agent_?id|Demo Bot|demo-model-1/i);
  // The journal kept them: read back from the store file after the daemon stopped.
  await daemon.stop();
  const store = Store.openReadOnly(dir);
  try {
    expect(store.getWake(pushed.wakeToken)).toMatchObject({
      agentName: 'demo',
      agentDisplayName: 'Demo Bot',
      model: 'demo-model-1',
    });
  } finally {
    store.close();
  }
}, 30_000);

it('§8.3: a cross-target send is audited with the wake being handled: audit.list and that wake’s inspector', async () => {
  const { daemon } = await start();
  await daemon.api['conversations.create']({ target: '#ops' });
  const wake = await settle(daemon, '#general', '@demo /cross #ops');
  expect(wake.status).toBe('reply_sent');
  const { messages: ops } = await daemon.api['messages.list']({ target: '#ops' });
  expect(ops.map((m) => m.authorId)).toEqual(['demo']);
  const audit = await daemon.api['audit.list']({});
  expect(audit).toEqual([
    {
      id: expect.any(Number),
      agentId: 'demo',
      agentName: 'Demo Bot',
      kind: 'cross_target_send',
      target: '#ops',
      messageId: ops[0]?.id,
      wakeTokens: [wake.wakeToken],
      at: expect.any(String),
    },
  ]);
  const inspected = await daemon.api['wakes.inspect']({ wakeToken: wake.wakeToken });
  expect(inspected.audit).toEqual(audit);
  // An ordinary reply in scope is not audited.
  const plain = await settle(daemon, '#general', '@demo hello');
  expect((await daemon.api['wakes.inspect']({ wakeToken: plain.wakeToken })).audit).toEqual([]);
  expect(await daemon.api['audit.list']({})).toHaveLength(1);
}, 30_000);
