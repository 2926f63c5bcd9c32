/**
 * issue 24: `channels.local.responseDelivery.enabled: false` through the assembled daemon and the
 * demo runtime: a turn that ends with no visible reply raises no `no_response` alert (with the
 * default config the same turn does), and replies are still delivered. The tracker's own test
 * (delivery-tracker.test.ts) covers no retry and no preserve on a failing channel.
 *
 * The reply is refused by a low `limits.maxMessageBytes` (the demo's answer is longer), so the
 * wake ends `completed_without_visible_reply` after its final-check. A second such turn is the
 * point where the first turn's alert has had its chance: alerts are raised as the wake ends.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplaySubject, filter, firstValueFrom } from 'rxjs';
import { afterEach, expect, it } from 'vitest';
import type { Alert, Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function start(responseDelivery: Record<string, unknown>, limits: Record<string, number> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-delivery-off-'));
  dirs.push(dir);
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_TASK_MS: '0' } }],
      channels: { local: { responseDelivery } },
      limits,
    }),
  );
  const daemon = await createDaemon({ dataDir: dir });
  daemons.push(daemon);
  const alerts: Alert[] = [];
  const ended = new ReplaySubject<Wake>();
  daemon.events$.subscribe((e) => {
    if (e.name === 'alert.raised') alerts.push(e.payload);
    if (e.name === 'wake.status' && isTerminal(e.payload.status)) ended.next(e.payload);
  });
  const settle = async (content: string): Promise<Wake> => {
    const sent = await daemon.api['messages.send']({ target: '#general', content });
    return firstValueFrom(ended.pipe(filter((w) => w.messageId === sent.messageId)));
  };
  return { daemon, alerts, settle };
}

it('enabled: false — a no-reply turn raises no no_response alert; the default config raises one', async () => {
  for (const [responseDelivery, expected] of [
    [{ enabled: false, alertOnNoResponse: true }, 0],
    [{}, 1],
  ] as const) {
    const { alerts, settle } = await start(responseDelivery, { maxMessageBytes: 60 });
    const first = await settle('@demo hi');
    expect(first).toMatchObject({ status: 'completed_without_visible_reply', reason: 'no_reply', finalCheck: true });
    await settle('@demo again');
    expect(alerts.filter((a) => a.kind === 'no_response' && a.wakeToken === first.wakeToken)).toHaveLength(expected);
  }
}, 60_000);

it('enabled: false — a reply is still delivered and confirmed on the local channel', async () => {
  const { daemon, alerts, settle } = await start({ enabled: false });
  const wake = await settle('@demo hello');
  expect(wake.status).toBe('reply_sent');
  const { events } = await daemon.api['wakes.inspect']({ wakeToken: wake.wakeToken });
  expect(events.filter((e) => e.kind === 'delivery').map((e) => e.detail)).toEqual(['delivered · 1 attempt']);
  const { messages } = await daemon.api['messages.list']({ target: '#general' });
  expect(messages.map((m) => m.authorKind)).toEqual(['operator', 'agent']);
  expect(alerts).toEqual([]);
}, 30_000);
