/**
 * issue 42 "Sleep and wake" at scale, with the real CLIs against their fake model servers: the
 * agents-at-rest bench's team (7 Codex, 7 Claude Code, 6 OpenCode), all asleep, one message to each
 * at the same moment, twice (a first exchange, then the resumed sessions). Every wake ends
 * `reply_sent`.
 *
 * Found by the bench: all twenty CLIs started at once on two cores, each start took as long as all of
 * them, and every Codex wake-up passed app-server's 30 s start timeout (measured here: 24–29 s with
 * 14 at once) and failed `cli_exited` ("the delivery was not written"). The resources room now
 * lets `startsAtOnce` processes start at a time (the others wait `paused / waiting_for_start`), and
 * a failed wake-up start is tried once more before its deliveries fail.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, ReplaySubject, timeout } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, Wake } from '../../../shared/api/contract.js';
import { createDaemon, type Daemon, type DaemonLog } from '../../../main/daemon/index.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { startFakeAnthropic } from '../../fixtures/fake-anthropic.js';
import { startFakeOpenAi } from '../../fixtures/fake-openai.js';
import { MODEL_API_KEY } from '../../fixtures/daemon-harness.js';

const TEAM = { codex: 7, 'claude-code': 7, opencode: 6 } as const;

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
}, 120_000);

describe('many sleeping agents woken at once', () => {
  it('20 real CLIs asleep (7 Codex), one message each at the same moment, twice: every wake ends reply_sent', async () => {
    const openai = await startFakeOpenAi();
    cleanup.push(() => openai.close());
    const anthropic = await startFakeAnthropic();
    cleanup.push(() => anthropic.close());
    const dir = await mkdtemp(join(tmpdir(), 'agentteam-wake-many-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const agents = Object.entries(TEAM).flatMap(([runtime, n]) =>
      Array.from({ length: n }, (_, i) => ({ id: `${runtime.split('-')[0] ?? runtime}${i + 1}`, runtime })),
    );
    for (const a of agents) await mkdir(join(dir, 'workspaces', a.id), { recursive: true });
    await writeFile(
      join(dir, 'agentteam.json'),
      JSON.stringify({
        agents: agents.map(({ id, runtime }) => ({
          id,
          name: id,
          runtime,
          model: 'fake-model',
          cwd: join('workspaces', id),
          env:
            runtime === 'claude-code'
              ? { ANTHROPIC_BASE_URL: anthropic.url, ANTHROPIC_API_KEY: MODEL_API_KEY, CLAUDE_CODE_MAX_RETRIES: '0' }
              : { OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: MODEL_API_KEY },
        })),
        // The product's defaults (startsAtOnce: the cores) but a short idle time.
        resources: { idleSleepSeconds: 1 },
      }),
      { mode: 0o600 },
    );
    const lines: string[] = [];
    const line = (level: string) => (message: string, fields?: Record<string, unknown>) =>
      void lines.push(`${level} ${message} ${JSON.stringify(fields ?? {}).slice(0, 600)}`);
    const log: DaemonLog = {
      debugEnabled: false,
      info: line('info'),
      warn: line('warn'),
      error: line('error'),
      debug: line('debug'),
    };
    const daemon: Daemon = await createDaemon({ dataDir: dir, log });
    cleanup.push(() => daemon.stop());
    const events$ = new ReplaySubject<ApiEvent>();
    daemon.events$.subscribe(events$);
    const problems = () =>
      lines
        .filter((l) => /^(warn|error)/.test(l))
        .slice(-12)
        .join('\n');

    const allAsleep = async (ms: number) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const list = await daemon.api['agents.list']({});
        if (list.every((a) => a.state === 'sleeping')) return;
        if (Date.now() > deadline)
          throw new Error(`not all asleep: ${list.map((a) => `${a.id}:${a.state}`).join(' ')}\n${problems()}`);
        // The next state change (the live stream, not the replay: that would spin on the past).
        await firstValueFrom(daemon.events$.pipe(filter((e) => e.name === 'agent.updated'))).catch(() => null);
      }
    };
    const terminal = (wakeToken: string) =>
      firstValueFrom(
        events$.pipe(
          filter(
            (e): e is Extract<ApiEvent, { name: 'wake.status' }> =>
              e.name === 'wake.status' && e.payload.wakeToken === wakeToken && isTerminal(e.payload.status),
          ),
          timeout({
            first: 600_000,
            with: () => Promise.reject(new Error(`${wakeToken} not terminal\n${problems()}`)),
          }),
        ),
      ).then((e) => e.payload);
    const wakeAll = (text: string): Promise<Wake[]> =>
      Promise.all(
        agents.map(async ({ id }) => {
          const target = `#rest-${id}`;
          const sent = await daemon.api['messages.send']({ target, content: `@${id} ${text} [[tool]]` });
          const wake = (await daemon.api['wakes.list']({ target })).find((w) => w.messageId === sent.messageId);
          return terminal((wake as Wake).wakeToken);
        }),
      );
    const outcome = (ends: readonly Wake[]) =>
      ends.map((w) => `${w.agentId}: ${w.status}${w.status === 'reply_sent' ? '' : ` (${w.reason}: ${w.detail})`}`);
    const allReplied = agents.map(({ id }) => `${id}: reply_sent`);

    await allAsleep(600_000);
    // A first exchange for every agent at once, then — asleep again — the resumed sessions at once.
    expect(outcome(await wakeAll('remember the word cobalt.'))).toEqual(allReplied);
    await allAsleep(600_000);
    const second = await wakeAll('which word did I ask you to remember?');
    expect(outcome(second)).toEqual(allReplied);
    // Every wake-up is on its wake's timeline ("woke the agent (2.1 s)").
    for (const w of second) {
      const timeline = (await daemon.api['wakes.inspect']({ wakeToken: w.wakeToken })).events;
      expect(timeline.map((e) => e.kind)).toContain('wake_up');
    }
  }, 1_800_000);
});
