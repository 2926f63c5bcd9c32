/**
 * The assembled daemon with a conversation bound to a (fake) Telegram chat (issue 18), the demo
 * agent replying through MCP like a real runtime. Everything is observed where a person sees it:
 * the chat (the fake Bot API server's record of what it shows), the API (messages, wakes and
 * their timeline, alerts, telegram.status) and the metrics.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { ReplaySubject, concatMap, filter, firstValueFrom, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, Alert } from '../../../shared/api/contract.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { parseMetrics } from '../../fixtures/daemon-harness.js';
import { startFakeTelegram, type FakeTelegram } from '../../fixtures/fake-telegram.js';
import { telegramCall } from '../../fixtures/telegram-status.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { deliveryByChannel } from '../../../shared/delivery-detail.js';

const CHAT = -100123;
const OPERATOR = 501;
const TUNING = { pollTimeoutSeconds: 5, sendTimeoutMs: 500, typingIntervalMs: 200, pollBackoffMs: 100 };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Running {
  daemon: Daemon;
  events: ApiEvent[];
  events$: ReplaySubject<ApiEvent>;
  stop(): Promise<void>;
}

async function setup(
  telegram: Record<string, unknown> = {},
  demoEnv: Record<string, string> = {},
  moreAgents: ReadonlyArray<Record<string, unknown>> = [],
) {
  const tg = await startFakeTelegram();
  cleanups.push(() => tg.close());
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-telegram-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const config = {
    agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', env: demoEnv }, ...moreAgents],
    channels: {
      telegram: {
        botTokenEnv: 'AGENTTEAM_TEST_TG_TOKEN',
        apiRoot: tg.apiRoot,
        bindings: [{ chatId: CHAT, target: '#general', allowFrom: [OPERATOR] }],
        ...telegram,
      },
    },
  };
  await writeFile(join(dir, 'agentteam.json'), JSON.stringify(config));
  const logLines: string[] = [];
  const line = (message: string, fields?: Record<string, unknown>) =>
    void logLines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  const log = { debugEnabled: true, info: line, warn: line, error: line, debug: line };
  const start = async (): Promise<Running> => {
    const daemon = await createDaemon({
      dataDir: dir,
      env: { AGENTTEAM_TEST_TG_TOKEN: tg.token },
      channelTuning: { telegram: TUNING },
      log,
    });
    const events$ = new ReplaySubject<ApiEvent>();
    const events: ApiEvent[] = [];
    const sub: Subscription = daemon.events$.subscribe((e) => {
      events.push(e);
      events$.next(e);
    });
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await daemon.stop();
      sub.unsubscribe();
    };
    cleanups.push(stop);
    return { daemon, events, events$, stop };
  };
  return { tg, dir, start, logLines };
}

const sentTexts = (tg: FakeTelegram) => tg.chat(CHAT).map((m) => m.text);
const isSend = (text: string) => (c: { method: string; body: Record<string, unknown> }) =>
  c.method === 'sendMessage' && String(c.body.text).includes(text);
const alertOf = (r: Running, kind: Alert['kind']) =>
  firstValueFrom(
    r.events$.pipe(
      filter(
        (e): e is Extract<ApiEvent, { name: 'alert.raised' }> => e.name === 'alert.raised' && e.payload.kind === kind,
      ),
    ),
  ).then((e) => e.payload);

/** Resolves once the wake's inspector timeline has a line matching `pred` (checked at each of its wake.status and wake.timeline events). */
async function timelineWith(r: Running, wakeToken: string, pred: (details: string[]) => boolean): Promise<string[]> {
  const details = async () =>
    (await r.daemon.api['wakes.inspect']({ wakeToken })).events.map((e) => `${e.kind} ${e.detail ?? e.status}`);
  const now = await details();
  if (pred(now)) return now;
  return firstValueFrom(
    r.events$.pipe(
      filter((e) => (e.name === 'wake.timeline' || e.name === 'wake.status') && e.payload.wakeToken === wakeToken),
      concatMap(() => details()),
      filter(pred),
    ),
  );
}

describe('Telegram channel in the assembled daemon (demo agent, fake Bot API)', () => {
  // issue 25: agent-to-agent messages in a bound conversation reach the chat like any reply.
  it('issue 25: an ask from the phone — the agent-to-agent question, the answer and the handed-back summary all reach the chat', async () => {
    const { tg, start } = await setup({}, {}, [{ id: 'helper', name: 'Helper', runtime: 'demo' }]);
    const r = await start();
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo /ask helper which test first?' });
    await tg.waitFor(isSend('Demo: [demo] Helper answered: You asked: "which test first?"'));
    expect(sentTexts(tg)).toEqual([
      'Demo: [demo] @helper which test first?',
      expect.stringMatching(/^Helper: \[demo\] You asked: "which test first\?"/),
      expect.stringMatching(/^Demo: \[demo\] Helper answered: You asked: "which test first\?"/),
    ]);
    // Demo's summary reaches the chat before its hand-back turn ends: wait for every wake's terminal.
    const allEnded = async () =>
      (await r.daemon.api['wakes.list']({ target: '#general' })).every((w) => isTerminal(w.status));
    if (!(await allEnded()))
      await firstValueFrom(
        r.events$.pipe(
          filter((e) => e.name === 'wake.status' && isTerminal(e.payload.status)),
          concatMap(allEnded),
          filter(Boolean),
        ),
      );
    const wakes = await r.daemon.api['wakes.list']({ target: '#general' });
    expect(wakes.map((w) => [w.agentId, w.cause, w.status])).toEqual([
      ['demo', 'operator', 'reply_sent'],
      ['helper', 'agent_mention', 'reply_sent'],
      // issue 38: the demo's summary after the hand-back covers it (§9.2): reply_sent.
      ['demo', 'hand_back', 'reply_sent'],
    ]);
  });

  it('an allowed user’s message wakes the agent; its reply reaches the chat once; others are ignored and counted', async () => {
    const { tg, start, logLines } = await setup();
    const r = await start();
    tg.userWrites({ chatId: CHAT, fromId: 999, text: '@demo from a stranger' });
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, photo: true });
    tg.userWrites({ chatId: 777, fromId: OPERATOR, text: '@demo from an unbound chat' });
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo hello from my phone' });
    await tg.waitFor(isSend('Demo: [demo] Hi!'));

    const { messages } = await r.daemon.api['messages.list']({ target: '#general' });
    expect(messages.map((m) => [m.authorKind, m.content.slice(0, 25)])).toEqual([
      ['operator', '@demo hello from my phone'],
      ['agent', '[demo] Hi! I am the demo '],
    ]);
    const wakes = await r.daemon.api['wakes.list']({ target: '#general' });
    expect(wakes).toHaveLength(1);
    const wake = wakes[0]!;
    // The inspector shows the reply's delivery state per channel.
    const timeline = await timelineWith(r, wake.wakeToken, (d) => d.some((l) => l.startsWith('delivery telegram:')));
    expect(timeline.filter((l) => l.startsWith('delivery'))).toEqual([
      'delivery delivered · 1 attempt',
      'delivery telegram: delivered · 1 attempt',
    ]);
    expect(sentTexts(tg)).toEqual([messages[1]!.content.replace(/^/, 'Demo: ')]);
    expect(tg.calls.some((c) => c.method === 'sendChatAction' && c.body.action === 'typing')).toBe(true);

    const m = parseMetrics(await r.daemon.metrics.metrics());
    expect(m.get('agentteam_telegram_inbound_updates_total{reason="",result="accepted"}')).toBe(1);
    expect(m.get('agentteam_telegram_inbound_updates_total{reason="not_allowed",result="ignored"}')).toBe(1);
    expect(m.get('agentteam_telegram_inbound_updates_total{reason="not_text",result="ignored"}')).toBe(1);
    expect(m.get('agentteam_telegram_inbound_updates_total{reason="unbound_chat",result="ignored"}')).toBe(1);
    expect(m.get('agentteam_delivery_results_total{channel="telegram",purpose="reply",state="delivered"}')).toBe(1);
    const status = await telegramCall(r.daemon.api, 'status');
    expect(status).toMatchObject({
      configured: true,
      state: 'polling',
      tokenSource: 'env',
      tokenEnv: 'AGENTTEAM_TEST_TG_TOKEN',
      bot: { id: 42, username: 'fake_agent_bot' },
      inbound: { accepted: 1, ignored: 3 },
      outbound: { delivered: 1, failedFinal: 0, uncertain: 0 },
      bindings: [{ chatId: CHAT, target: '#general', allowFrom: [OPERATOR], source: 'config' }],
    });
    // The token is never in an API answer.
    expect(JSON.stringify(status)).not.toContain(tg.token);
    expect(JSON.stringify(await r.daemon.api['settings.get']({}))).not.toContain('AGENTTEAM_TEST_TG_TOKEN');
    // Nor in any log line (the bot token is part of every Bot API URL).
    expect(logLines.some((l) => l.includes('telegram: channel started'))).toBe(true);
    expect(logLines.filter((l) => l.includes(tg.token) || l.includes(tg.token.split(':')[1]!))).toEqual([]);
  });

  it('silence beacons and the escalation go to the chat; typing is sent but never resets the watchdog', async () => {
    const { tg, start } = await setup(
      { silenceWatchdog: { thresholdSeconds: 0.5, maxBeacons: 2 } },
      { DEMO_TASK_MS: '2500' },
    );
    const r = await start();
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo /slow' });
    await tg.waitFor(isSend('Demo: [demo] Finished'), undefined, 20_000);
    const [wake] = await r.daemon.api['wakes.list']({ target: '#general' });
    await timelineWith(r, wake!.wakeToken, (d) => d.includes('delivery telegram: delivered · 1 attempt'));
    // issue 29: the working status also carries one Stop offer (telegram-stops.ts), edited when the turn ends.
    const offer = 'Demo is working on this. Stop the turn?';
    const offered = await tg.waitFor((c) => c.method === 'sendMessage' && String(c.body.text).includes(offer), 0);
    expect(offered.body.text).toBe(`⏹ ${offer}`);
    const ended = 'Demo finished this turn.';
    await tg.waitFor((c) => c.method === 'editMessageText' && c.body.text === ended, 0);
    const texts = sentTexts(tg).filter((t) => t !== ended);
    expect(texts.slice(0, 3).map((t) => t.replace(/[\d.]+s$/, 'Ns'))).toEqual([
      'Demo · 🧠 Working… Ns',
      'Demo · 🧠 Working… Ns',
      'Demo · ⚠️ Extended processing — still working. Response may be delayed.',
    ]);
    expect(texts).toHaveLength(4);
    // Typing went out every 200 ms from the turn's start, and the first beacon still came at ~500 ms.
    const firstBeacon = tg.calls.findIndex(isSend('Working…'));
    expect(tg.calls.slice(0, firstBeacon).filter((c) => c.method === 'sendChatAction').length).toBeGreaterThanOrEqual(
      2,
    );
    const m = parseMetrics(await r.daemon.metrics.metrics());
    expect(m.get('agentteam_watchdog_beacons_total{channel="telegram"}')).toBe(2);
    expect(m.get('agentteam_watchdog_escalations_total{channel="telegram"}')).toBe(1);
    // Beacons are channel messages, never replies: one reply result only.
    expect(m.get('agentteam_delivery_results_total{channel="telegram",purpose="reply",state="delivered"}')).toBe(1);
    expect(m.get('agentteam_delivery_results_total{channel="telegram",purpose="beacon",state="delivered"}')).toBe(3);
  });

  it("issue 24: one agent's failure is its own neutral notice in the chat, never hidden or overwritten by another's beacons or reply", async () => {
    const { tg, start } = await setup(
      { silenceWatchdog: { thresholdSeconds: 0.5, maxBeacons: 1 } },
      { DEMO_TASK_MS: '1500' },
      [{ id: 'codex', name: 'Codex', runtime: 'codex', command: 'agentteam-no-such-cli-4711' }],
    );
    const r = await start();
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo @codex /slow please, both of you' });
    const failed = await tg.waitFor(isSend('⚠️ Codex · '), undefined, 20_000);
    expect(String(failed.body.text)).toMatch(/^⚠️ Codex · Couldn't complete — .*(not found|install)/i);
    await tg.waitFor(isSend('Demo: [demo] Finished'), undefined, 20_000);
    const wakes = await r.daemon.api['wakes.list']({ target: '#general' });
    expect(wakes.map((w) => [w.agentId, w.status, w.reason]).sort()).toEqual([
      ['codex', 'failed', 'cli_missing'],
      ['demo', 'reply_sent', null],
    ]);
    const chat = tg.chat(CHAT);
    const texts = chat.map((m) => m.text);
    // The failure came first and is still there, as it was posted: Demo's beacon and reply are messages of their own.
    const failure = texts.findIndex((t) => t.startsWith('⚠️ Codex · '));
    const beacon = texts.findIndex((t) => t.startsWith('Demo · 🧠 Working…'));
    const reply = texts.findIndex((t) => t.startsWith('Demo: [demo] Finished'));
    expect(failure).toBeGreaterThanOrEqual(0);
    expect(failure).toBeLessThan(beacon);
    expect(beacon).toBeLessThan(reply);
    expect(chat[failure]!.edits).toBe(0);
    // Only the Stop offer posted with the beacon (issue 29) may be edited (when Demo's turn ends), never a notice or reply.
    const edited = chat.filter((m) => m.edits > 0).map((m) => m.text);
    expect(edited.every((t) => t.includes('Demo') && !t.includes('Codex') && !t.startsWith('Demo:'))).toBe(true);
    // One notice per failed wake; it is a status, never written as the agent (`Codex: …`), never a reply.
    expect(texts.filter((t) => t.includes('Codex'))).toHaveLength(1);
    expect(texts.some((t) => t.startsWith('Codex:'))).toBe(false);
    const m = parseMetrics(await r.daemon.metrics.metrics());
    expect(m.get('agentteam_delivery_results_total{channel="telegram",purpose="alert",state="delivered"}')).toBe(1);
  });

  it('issue 27: 80 % of the daily budget is a neutral notice in the bound chat, once, named, never as the agent', async () => {
    const { tg, start } = await setup();
    const r = await start();
    const used = async () => (await r.daemon.api['usage.summary']({ agentId: 'demo' })).budgets[0]?.state.used ?? 0;
    const usageAbove = async (n: number) => {
      const next = firstValueFrom(r.events$.pipe(filter((e) => e.name === 'usage.updated')));
      if ((await used()) <= n) await next;
      return used();
    };
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo hello from my phone' });
    await tg.waitFor(isSend('Demo: [demo] Hi!'));
    const one = await usageAbove(0);
    const limit = Math.round(one * 1.9);
    await r.daemon.api['agents.raiseBudget']({ agentId: 'demo', budget: { tokens: limit } });
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo again' });
    const notice = await tg.waitFor(isSend('⚠️ Demo · daily token budget at'), undefined, 20_000);
    const now = await used();
    expect(notice.body.text).toBe(
      `⚠️ Demo · daily token budget at ${Math.round((now / limit) * 100)} % (${now} / ${limit})`,
    );
    const texts = sentTexts(tg);
    expect(texts.filter((t) => t.includes('budget'))).toHaveLength(1);
    expect(texts.some((t) => t.startsWith('Demo: ⚠️'))).toBe(false);
    expect((await alertOf(r, 'usage_warning')).target).toBe('#general');
  });

  it('issue 40 item 8: a usage pause of a bound conversation is one neutral notice in the chat, with its reset, once per pause', async () => {
    const { tg, start } = await setup({}, { DEMO_LIMIT_SECONDS: '600' });
    const r = await start();
    /** The next status of a wake other than `token` (any wake when undefined) with `status` (any when undefined). */
    const wakeStatus = (token?: string, status?: string) =>
      firstValueFrom(
        r.events$.pipe(
          filter(
            (e): e is Extract<ApiEvent, { name: 'wake.status' }> =>
              e.name === 'wake.status' &&
              (status === undefined || e.payload.status === status) &&
              (token === undefined || e.payload.wakeToken !== token),
          ),
        ),
      );
    const first = wakeStatus(undefined, 'paused');
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo /limit please' });
    const notice = await tg.waitFor(isSend('⏸ Demo · '), undefined, 20_000);
    const [paused] = await r.daemon.api['wakes.list']({ target: '#general' });
    expect(paused?.status).toBe('paused');
    expect(paused?.pausedUntil).toBeTruthy();
    const d = new Date(paused?.pausedUntil as string);
    const hhmm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    expect(notice.body.text).toBe(
      `⏸ Demo · Paused until ${hhmm} · usage limit. The work waits in its place and goes on after the reset; the app has Try now.`,
    );
    // A second message of the chat waits behind the pause (the same pause): no second notice.
    const second = wakeStatus((await first).payload.wakeToken);
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo and this too' });
    await second;
    // Try now: the probe goes through (the demo refuses once), both wakes reply; still one notice.
    await r.daemon.api['agents.tryNow']({ agentId: 'demo' });
    await expect
      .poll(async () => (await r.daemon.api['wakes.list']({ target: '#general' })).map((w) => w.status), {
        timeout: 20_000,
      })
      .toEqual(['reply_sent', 'reply_sent']);
    // The reply may have reached the chat before the poll saw both wakes replied (one reply can
    // settle both wakes of the same conversation): any reply since the start counts.
    await tg.waitFor(isSend('Demo: [demo]'), 0);
    const texts = sentTexts(tg);
    expect(texts.filter((t) => t.startsWith('⏸ '))).toHaveLength(1);
    expect(texts.some((t) => t.startsWith('Demo: ⏸'))).toBe(false);
  });

  it('FAILED_FINAL (500 twice): alert, kept, re-delivered once on the next message from the chat', async () => {
    const { tg, start } = await setup();
    const r = await start();
    tg.scriptSends('server_error', 'server_error');
    const failed = alertOf(r, 'delivery_failed');
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo first' });
    const alert = await failed;
    expect(alert.message).toBe('Reply not delivered — kept for re-delivery');
    const notice = await tg.waitFor(isSend('⚠️ Reply not delivered'));
    expect(String(notice.body.text)).toContain('a reply from Demo in this chat');
    const [wake] = await r.daemon.api['wakes.list']({ target: '#general' });
    expect(wake?.status).toBe('reply_sent');
    await timelineWith(r, wake!.wakeToken, (d) =>
      d.includes('delivery telegram: failed_final · 2 attempts · server_error'),
    );
    // issue 40 item 7: the failure names its channel, and the inspector's delivery per channel says
    // where the reply arrived and where it did not (status, attempts, last error).
    expect(alert.channel).toBe('telegram');
    const { events } = await r.daemon.api['wakes.inspect']({ wakeToken: wake!.wakeToken });
    expect(deliveryByChannel(events.filter((e) => e.kind === 'delivery').map((e) => e.detail))).toEqual([
      { channel: 'local', state: 'delivered', attempts: 1, lastError: null },
      { channel: 'telegram', state: 'failed_final', attempts: 2, lastError: 'server_error' },
    ]);

    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo second' });
    await tg.waitFor(isSend('↻ Demo: [demo] Hi!'));
    await tg.waitFor((c) => isSend('Demo: [demo] Hi!')(c) && !String(c.body.text).startsWith('↻'));
    const texts = sentTexts(tg);
    expect(texts.filter((t) => t.startsWith('↻ '))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('[demo] Hi!'))).toHaveLength(2);
    expect(texts).toHaveLength(3);
  });

  it('ACK dropped: uncertain + alert, the reply is shown once and never resent', async () => {
    const { tg, start } = await setup();
    const r = await start();
    tg.scriptSends('drop_ack');
    const uncertain = alertOf(r, 'delivery_uncertain');
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@demo are you there' });
    expect((await uncertain).message).toBe('Delivery unconfirmed');
    await tg.waitFor(isSend('⚠️ Delivery unconfirmed'));
    const texts = sentTexts(tg);
    expect(texts.filter((t) => t.includes('[demo] Hi!'))).toHaveLength(1);
    expect(tg.calls.filter(isSend('[demo] Hi!'))).toHaveLength(1);
  });

  it('restart mid-poll and a duplicate update delivery: 0 lost, 0 replayed', async () => {
    const { tg, start } = await setup();
    let r = await start();
    const a = tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: 'first note' });
    await tg.waitFor((c) => c.method === 'getUpdates' && c.body.offset === a + 1);
    // The poll for a+1 is in flight: the daemon stops mid-poll, a message arrives while it is down.
    await r.stop();
    const b = tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: 'second note' });
    const mark = tg.calls.length;
    r = await start();
    const firstPoll = await tg.waitFor((c) => c.method === 'getUpdates', mark);
    expect(firstPoll.body.offset).toBe(a + 1);
    await tg.waitFor((c) => c.method === 'getUpdates' && c.body.offset === b + 1, mark);
    // Telegram re-sends an update already taken, alongside a new one.
    tg.duplicateNextPoll();
    const c = tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: 'third note' });
    await tg.waitFor((x) => x.method === 'getUpdates' && x.body.offset === c + 1, mark);
    const { messages } = await r.daemon.api['messages.list']({ target: '#general' });
    expect(messages.map((m) => m.content)).toEqual(['first note', 'second note', 'third note']);
    expect((await telegramCall(r.daemon.api, 'status')).inbound).toEqual({ accepted: 2, ignored: 0, duplicates: 1 });
  });

  it('a crash after storing an update but before moving the offset: the replayed update stores nothing', async () => {
    const { tg, dir, start } = await setup();
    let r = await start();
    const a = tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: 'stored once' });
    await tg.waitFor((c) => c.method === 'getUpdates' && c.body.offset === a + 1);
    await r.stop();
    // The crash window: the message is durable, the offset is not (rewound by hand).
    const db = new DatabaseSync(join(dir, 'agentteam.db'));
    db.exec(`UPDATE channel_cursors SET position = ${a} WHERE channel = 'telegram'`);
    db.close();
    const b = tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: 'after the crash' });
    tg.duplicateNextPoll();
    const mark = tg.calls.length;
    r = await start();
    expect((await tg.waitFor((c) => c.method === 'getUpdates', mark)).body.offset).toBe(a);
    await tg.waitFor((c) => c.method === 'getUpdates' && c.body.offset === b + 1, mark);
    const { messages } = await r.daemon.api['messages.list']({ target: '#general' });
    expect(messages.map((m) => m.content)).toEqual(['stored once', 'after the crash']);
    expect((await telegramCall(r.daemon.api, 'status')).inbound).toEqual({ accepted: 1, ignored: 0, duplicates: 1 });
  });

  it('a token in agentteam.json readable by others: a warning with the fix, the token in no answer or log line', async () => {
    const { tg, dir, start, logLines } = await setup({ botToken: '', botTokenEnv: undefined });
    const file = join(dir, 'agentteam.json');
    const config = JSON.parse(await readFile(file, 'utf8')) as { channels: { telegram: Record<string, unknown> } };
    config.channels.telegram.botToken = tg.token;
    await writeFile(file, JSON.stringify(config));
    await chmod(file, 0o644);
    const r = await start();
    const status = await telegramCall(r.daemon.api, 'status');
    expect(status.tokenSource).toBe('config');
    expect(status.warning).toMatch(/chmod 600/);
    expect(logLines.some((l) => l.includes('chmod 600'))).toBe(true);
    expect(JSON.stringify(status)).not.toContain(tg.token);
    expect(logLines.filter((l) => l.includes(tg.token))).toEqual([]);
    await r.stop();
    await chmod(file, 0o600);
    expect((await telegramCall((await start()).daemon.api, 'status')).warning).toBeNull();
  });

  it('without a token nothing is sent and Settings says how to fix it; replies stay local, no alert per reply', async () => {
    const { tg, start } = await setup({ botTokenEnv: 'AGENTTEAM_TEST_UNSET_TOKEN' });
    const r = await start();
    const status = await telegramCall(r.daemon.api, 'status');
    expect(status).toMatchObject({ state: 'no_token', tokenSource: null });
    expect(status.detail).toContain('AGENTTEAM_TEST_UNSET_TOKEN');
    const sent = await r.daemon.api['messages.send']({ target: '#general', content: '@demo local only' });
    const wake = (await r.daemon.api['wakes.list']({ target: '#general' })).find((w) => w.messageId === sent.messageId);
    await timelineWith(r, wake!.wakeToken, (d) => d.includes('delivery delivered · 1 attempt'));
    expect(tg.calls).toEqual([]);
    expect(r.events.filter((e) => e.name === 'alert.raised')).toEqual([]);
    expect((await telegramCall(r.daemon.api, 'status')).outbound).toEqual({
      delivered: 0,
      failedFinal: 0,
      uncertain: 0,
    });
  });

  it('the Settings page adds and removes a binding; a chat or target bound twice is refused', async () => {
    const { tg, start } = await setup();
    const r = await start();
    // issue 40 item 9: a binding names a conversation that exists; a typo is refused and creates nothing.
    await expect(
      telegramCall(r.daemon.api, 'addBinding', { chatId: 555, target: '#phone', allowFrom: [OPERATOR] }),
    ).rejects.toMatchObject({ code: 'invalid_target', message: expect.stringMatching(/no conversation #phone/) });
    expect((await r.daemon.api['conversations.list']({})).map((c) => c.target)).not.toContain('#phone');
    expect((await telegramCall(r.daemon.api, 'status', {})).bindings.map((b) => b.chatId)).toEqual([CHAT]);
    await r.daemon.api['conversations.create']({ target: '#phone' });
    const added = await telegramCall(r.daemon.api, 'addBinding', {
      chatId: 555,
      target: '#phone',
      allowFrom: [OPERATOR],
    });
    expect(added.bindings.map((b) => [b.chatId, b.target, b.source])).toEqual([
      [CHAT, '#general', 'config'],
      [555, '#phone', 'settings'],
    ]);
    expect((await r.daemon.api['conversations.list']({})).map((c) => c.target)).toContain('#phone');
    await expect(
      telegramCall(r.daemon.api, 'addBinding', { chatId: 556, target: '#general', allowFrom: [1] }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(telegramCall(r.daemon.api, 'removeBinding', { chatId: CHAT })).rejects.toThrow(/agentteam\.json/);
    // The new binding is live: a message from that chat lands in #phone.
    tg.userWrites({ chatId: 555, fromId: OPERATOR, text: 'from the new chat' });
    const seen = await firstValueFrom(
      r.events$.pipe(filter((e) => e.name === 'message.stored' && e.payload.target === '#phone')),
    );
    expect(seen.name === 'message.stored' && seen.payload.content).toBe('from the new chat');
    const removed = await telegramCall(r.daemon.api, 'removeBinding', { chatId: 555 });
    expect(removed.bindings.map((b) => b.chatId)).toEqual([CHAT]);
  });
});
