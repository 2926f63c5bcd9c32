/**
 * issue 15 "our own refusals are visible", through the assembled daemon and the demo runtime
 * (which calls message_send over real MCP like a CLI runtime): when the daemon refuses the
 * agent's send (`rate_limited` under a low `limits.sendsPerMinute`, `content_too_large` under a
 * low `limits.maxMessageBytes`), the wake's timeline records the refusal and the wake that then
 * ends without a reply names it in its detail — in `wakes` rows and the wake status event —
 * and the Details copy says it in plain words (en + zh-CN).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplaySubject, filter, firstValueFrom } from 'rxjs';
import { afterEach, expect, it } from 'vitest';
import { refusalOf, refusalWords, UNKNOWN_RUNTIME_WORDS } from '../../../shared/agent-readiness.js';
import type { Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { wakeOutcomeWords } from '../../../renderer/src/components/failure-details.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function daemonWith(limits: Record<string, number>): Promise<Daemon> {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-refusals-'));
  dirs.push(dir);
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_TASK_MS: '0' } }],
      limits,
    }),
  );
  const daemon = await createDaemon({ dataDir: dir });
  daemons.push(daemon);
  return daemon;
}

async function settle(daemon: Daemon, content: string): Promise<Wake> {
  const ended = new ReplaySubject<Wake>();
  const sub = daemon.events$.subscribe((e) => {
    if (e.name === 'wake.status' && isTerminal(e.payload.status)) ended.next(e.payload);
  });
  try {
    const sent = await daemon.api['messages.send']({ target: '#general', content });
    return await firstValueFrom(ended.pipe(filter((w) => w.messageId === sent.messageId)));
  } finally {
    sub.unsubscribe();
  }
}

it('rate_limited: the send after the per-minute limit is refused, and the wake that ends without a reply says so', async () => {
  const daemon = await daemonWith({ sendsPerMinute: 1 });
  // The one send of this minute goes through.
  expect(await settle(daemon, '@demo hello')).toMatchObject({ status: 'reply_sent' });
  // The next is refused (and so is the answer to the final-check): no reply, and the detail names the refusal.
  const refused = await settle(daemon, '@demo again');
  expect(refused.status).toBe('completed_without_visible_reply');
  expect(refused.detail).toMatch(/^message_send refused: rate_limited/);
  expect(refusalOf(refused.detail)).toBe('rate_limited');
  // The stored row (`agentteam wakes --json` reads the same API) and the timeline agree.
  const rows = await daemon.api['wakes.list']({ limit: 10 });
  expect(rows.find((w) => w.wakeToken === refused.wakeToken)?.detail).toBe(refused.detail);
  const timeline = await daemon.api['wakes.inspect']({ wakeToken: refused.wakeToken });
  expect(JSON.stringify(timeline)).toContain('message_send refused: rate_limited');
  // The Details copy leads with the plain words, in both languages.
  expect(wakeOutcomeWords(refused, 'en', UNKNOWN_RUNTIME_WORDS)).toBe(refusalWords('rate_limited', 'en'));
  expect(wakeOutcomeWords(refused, 'en', UNKNOWN_RUNTIME_WORDS)).toMatch(/per-minute message limit/);
  expect(wakeOutcomeWords(refused, 'zh-CN', UNKNOWN_RUNTIME_WORDS)).toMatch(/频率限制/);
}, 30_000);

it('content_too_large: a reply over limits.maxMessageBytes is refused, and the wake names it', async () => {
  // The operator's short mention fits; the demo's reply (well over 60 bytes) does not.
  const daemon = await daemonWith({ maxMessageBytes: 60 });
  const refused = await settle(daemon, '@demo hi');
  expect(refused.status).toBe('completed_without_visible_reply');
  expect(refusalOf(refused.detail)).toBe('content_too_large');
  expect(wakeOutcomeWords(refused, 'en', UNKNOWN_RUNTIME_WORDS)).toMatch(/larger than the size limit/);
  expect(wakeOutcomeWords(refused, 'zh-CN', UNKNOWN_RUNTIME_WORDS)).toMatch(/超过了大小上限/);
}, 30_000);
