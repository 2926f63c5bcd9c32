/**
 * issue 24 (watchdog spec B "No-response detection") in the assembled daemon: a scripted runtime
 * that answers every delivery and its final-check with local text only (nothing sent), so each of
 * its turns ends `completed_without_visible_reply / no_reply`. Observed where people see it: the
 * API's `alert.raised` and wake statuses, the (fake, real-wire) Telegram chat, the serve log line.
 * One alert per turn; the flags of the channel the conversation is delivered on govern it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplaySubject, Subject, filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/contract.js';
import { createDaemon } from '../../../main/daemon/index.js';
import type {
  DeliverResult,
  RuntimeAdapter,
  RuntimeEventEnvelope,
  StartResult,
  TurnBoundaryHost,
} from '../../../main/daemon/runtime/runtime-adapter.js';
import { startFakeTelegram } from '../../fixtures/fake-telegram.js';
import { readyProbe } from '../../fixtures/ready-probe.js';

const CHAT = -100424;

/** A runtime that never sends: each turn takes what was written, then ends at the boundary after the final-check. */
class SilentRuntime implements RuntimeAdapter {
  readonly runtime = 'claude-code' as const;
  readonly #events = new Subject<RuntimeEventEnvelope>();
  readonly events$ = this.#events.asObservable();
  host: TurnBoundaryHost | null = null;
  #turnOpen = false;

  async start(): Promise<StartResult> {
    this.#events.next({ type: 'ready', sessionId: 's1', resumed: false, generation: 1 });
    return { ok: true, sessionId: 's1', resumed: false };
  }

  async deliver(): Promise<DeliverResult> {
    if (this.#turnOpen) return { ok: true };
    this.#turnOpen = true;
    this.#events.next({ type: 'turn_start', sessionId: 's1', generation: 1 });
    // The turn ends after this write settles (the host marks the rows delivered first).
    setImmediate(() => void this.#endTurn());
    return { ok: true };
  }

  async #endTurn(): Promise<void> {
    // Local text only, then the boundary: the host answers with the one final-check, then null.
    while ((await this.host?.onTurnBoundary()) != null)
      this.#events.next({ type: 'final_check', outcome: 'injected', via: 'stop_hook', detail: null, generation: 1 });
    this.#turnOpen = false;
    this.#events.next({ type: 'turn_end', outcome: 'completed', generation: 1 });
  }

  async interrupt(): Promise<void> {}
  async stop(): Promise<void> {
    this.#events.complete();
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(telegramDelivery: Record<string, unknown>) {
  const tg = await startFakeTelegram();
  cleanups.push(() => tg.close());
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-no-response-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [{ id: 'quiet', name: 'Quiet', runtime: 'claude-code' }],
      channels: {
        local: { responseDelivery: { alertOnNoResponse: true } },
        telegram: {
          botTokenEnv: 'TG_NO_RESPONSE_TOKEN',
          apiRoot: tg.apiRoot,
          bindings: [{ chatId: CHAT, target: '#phone', allowFrom: [1] }],
          responseDelivery: telegramDelivery,
        },
      },
    }),
  );
  const lines: string[] = [];
  const line = (m: string, f?: Record<string, unknown>) => void lines.push(`${m} ${JSON.stringify(f ?? {})}`);
  const daemon = await createDaemon({
    dataDir: dir,
    env: { TG_NO_RESPONSE_TOKEN: tg.token },
    channelTuning: {
      telegram: { pollTimeoutSeconds: 5, sendTimeoutMs: 1000, typingIntervalMs: 60_000, pollBackoffMs: 100 },
    },
    log: { debugEnabled: true, info: line, warn: line, error: line, debug: line },
    probe: readyProbe,
    createRuntime: (_agent, deps) => {
      const runtime = new SilentRuntime();
      runtime.host = deps.host;
      return { ok: true, adapter: runtime };
    },
  });
  cleanups.push(() => daemon.stop());
  const events$ = new ReplaySubject<ApiEvent>();
  const sub = daemon.events$.subscribe(events$);
  cleanups.push(async () => sub.unsubscribe());
  const alerts: Extract<ApiEvent, { name: 'alert.raised' }>['payload'][] = [];
  sub.add(daemon.events$.subscribe((e) => e.name === 'alert.raised' && void alerts.push(e.payload)));
  await daemon.api['conversations.create']({ target: '#ops' });
  /** The operator's message to `target`; resolves once its wake has ended (any alert of it was raised before). */
  const ask = async (target: string) => {
    const { messageId } = await daemon.api['messages.send']({ target, content: '@quiet anything new?' });
    const ended = await firstValueFrom(
      events$.pipe(
        filter(
          (e): e is Extract<ApiEvent, { name: 'wake.status' }> =>
            e.name === 'wake.status' &&
            e.payload.messageId === messageId &&
            e.payload.status === 'completed_without_visible_reply',
        ),
      ),
    );
    return ended.payload;
  };
  return { tg, daemon, ask, alerts, lines };
}

describe('the no-response alert in the assembled daemon (issue 24)', () => {
  it("a bound conversation follows the Telegram channel's flags, an unbound one the local channel's", async () => {
    const s = await setup({ alertOnNoResponse: false });
    const bound = await s.ask('#phone');
    expect(bound).toMatchObject({ status: 'completed_without_visible_reply', reason: 'no_reply', finalCheck: true });
    expect(s.alerts).toEqual([]);
    const local = await s.ask('#ops');
    expect(s.alerts).toEqual([
      expect.objectContaining({ kind: 'no_response', target: '#ops', wakeToken: local.wakeToken, agentName: 'Quiet' }),
    ]);
    // Under serve there is no OS notification: the alert is also a log line.
    expect(s.lines.filter((l) => l.startsWith('alert raised'))).toEqual([
      expect.stringContaining('"kind":"no_response"'),
    ]);
    expect(s.tg.calls.filter((c) => c.method === 'sendMessage')).toEqual([]);
  });

  it('with Telegram alerts on, the bound conversation gets one alert and one neutral notice in its chat', async () => {
    const s = await setup({});
    const bound = await s.ask('#phone');
    expect(s.alerts).toEqual([
      expect.objectContaining({ kind: 'no_response', target: '#phone', wakeToken: bound.wakeToken }),
    ]);
    const notice = await s.tg.waitFor((c) => c.method === 'sendMessage');
    expect(notice.body).toMatchObject({
      chat_id: CHAT,
      text: 'ℹ️ Quiet · Turn ended without a message — back to idle',
    });
  });
});
