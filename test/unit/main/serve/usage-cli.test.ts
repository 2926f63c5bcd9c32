/**
 * issue 27: `agentteam usage [--agent ID] [--since DATE] [--json]` against a real `agentteam serve`
 * (real daemon, two demo agents, one with a daily token budget). The demo reports a demo's usage
 * per turn (a token per 4 characters it read and wrote): the stored totals are checked against
 * the prompt the wake's agent was given and the reply it wrote, both read back from the daemon;
 * the text mode lists the same numbers; bad input and an unknown agent are refused in one line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEMO_CHARS_PER_TOKEN } from '../../../../main/daemon/runtime/demo/demo-runtime.js';
import { runCli } from '../../../../main/serve/cli-main.js';
import { connectDaemon, type DaemonClient } from '../../../../main/serve/daemon-client.js';
import type { ServeServer } from '../../../../main/serve/serve-server.js';
import { utcDay, type UsageSummary } from '../../../../shared/usage.js';
import { captureIo } from '../../../fixtures/capture-io.js';
import { makeTempDir, type TempDir } from '../../../fixtures/temp-dir.js';

let dir: TempDir;
let stop: (signal: string) => void;
let exit: Promise<number>;
let client: DaemonClient;

beforeEach(async () => {
  dir = makeTempDir('agentteam-usage-cli-');
  writeFileSync(
    join(dir.path, 'agentteam.json'),
    JSON.stringify({
      agents: [
        { id: 'demo', name: 'Demo', runtime: 'demo', budget: { tokens: 100_000 } },
        { id: 'helper', name: 'Helper', runtime: 'demo' },
      ],
    }),
  );
  const stopRequested = new Promise<string>((r) => (stop = r));
  let listening = (_s: ServeServer): void => undefined;
  const ready = new Promise<ServeServer>((r) => (listening = r));
  exit = runCli(['serve', '--data-dir', dir.path, '--port', '0'], {
    io: captureIo(),
    serve: { rendererDir: null, stopRequested, onListening: listening },
  });
  await ready;
  const connected = await connectDaemon(dir.path);
  if (!connected.ok) throw new Error(connected.message);
  client = connected.client;
});
afterEach(async () => {
  client.close();
  stop('SIGTERM');
  await exit;
  dir.remove();
});

/** Calls until `ok` answers true (each call one API round trip; no timer). */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

it("prints the agents' usage per UTC day as the runtime reported it (--json and text), filtered by --agent", async () => {
  const sent = await client.call('messages.send', { target: '#general', content: '@demo hi' });
  if (!sent.ok) throw new Error(sent.message);
  // The wake ends on the reply; the usage comes with the turn's end, after it.
  const inspected = await until(
    async () => {
      const list = await client.call('wakes.list', { target: '#general' });
      const wake = list.ok ? list.value.find((w) => w.messageId === sent.value.messageId) : undefined;
      if (wake === undefined) return null;
      const r = await client.call('wakes.inspect', { wakeToken: wake.wakeToken });
      return r.ok ? r.value : null;
    },
    (v) => v?.wake.status === 'reply_sent' && v.usage != null,
  );
  const messages = await client.call('messages.list', { target: '#general' });
  if (!messages.ok) throw new Error(messages.message);
  const reply = messages.value.messages.find((m) => m.authorId === 'demo');
  if (reply === undefined || inspected === null) throw new Error('no reply');
  // The prompt inputs join into what was written into the runtime (contract §8.4).
  const read = inspected.promptInputs.map((p) => p.text).join('\n\n').length;
  const expected = {
    inputTokens: Math.ceil(read / DEMO_CHARS_PER_TOKEN),
    outputTokens: Math.ceil(reply.content.length / DEMO_CHARS_PER_TOKEN),
    cachedTokens: 0,
    costUsd: null,
  };
  expect(inspected.usage).toMatchObject({ ...expected, agentId: 'demo', runtime: 'demo', turns: 1 });

  const today = utcDay(new Date());
  const json = captureIo();
  expect(await runCli(['usage', '--data-dir', dir.path, '--json'], { io: json })).toBe(0);
  expect(json.outLines).toHaveLength(1);
  const summary = JSON.parse(json.outLines[0] ?? '') as UsageSummary;
  expect(summary.today).toBe(today);
  expect(summary.days).toEqual([{ ...expected, agentId: 'demo', runtime: 'demo', day: today, wakes: 1, turns: 1 }]);
  const used = expected.inputTokens + expected.outputTokens;
  expect(summary.budgets).toEqual([
    {
      agentId: 'demo',
      budget: { tokens: 100_000 },
      state: expect.objectContaining({ reached: false, kind: 'tokens', used, limit: 100_000 }),
    },
    { agentId: 'helper', budget: null, state: expect.objectContaining({ reached: false, limit: null }) },
  ]);

  const text = captureIo();
  expect(await runCli(['usage', '--data-dir', dir.path, '--since', today], { io: text })).toBe(0);
  expect(text.outLines[0]).toMatch(/^day \(UTC\)\s+agent\s+runtime\s+input\s+cached\s+output\s+cost\s+wakes\s+turns$/);
  expect(text.outLines[1]?.split(/\s+/)).toEqual([
    today,
    'demo',
    'demo',
    String(expected.inputTokens),
    '0',
    String(expected.outputTokens),
    '-',
    '1',
    '1',
  ]);
  expect(text.outLines.slice(2)).toEqual([
    `budget  demo  ${used} of 100000 tokens today (${Math.round((used / 100_000) * 100)} %)`,
  ]);

  const helper = captureIo();
  expect(await runCli(['usage', '--data-dir', dir.path, '--agent', 'helper', '--json'], { io: helper })).toBe(0);
  const helperSummary = JSON.parse(helper.outLines[0] ?? '') as UsageSummary;
  expect(helperSummary.days).toEqual([]);
  expect(helperSummary.budgets.map((b) => b.agentId)).toEqual(['helper']);
  const helperText = captureIo();
  expect(await runCli(['usage', '--data-dir', dir.path, '--agent', 'helper'], { io: helperText })).toBe(0);
  expect(helperText.outLines).toEqual([`no usage reported since the first day asked (UTC days; today ${today})`]);
});

it('refuses an unknown agent with exit 1 and one line', async () => {
  const io = captureIo();
  expect(await runCli(['usage', '--data-dir', dir.path, '--agent', 'nobody'], { io })).toBe(1);
  expect(io.errLines).toEqual(['agentteam: There is no agent "nobody"; see agentteam.json. (unknown_agent)']);
});

it.each([
  [['usage', '--data-dir', 'X', '--since', '2026-13-01'], /--since must be a UTC day YYYY-MM-DD .*not "2026-13-01"/],
  [['usage', '--data-dir', 'X', '--since', '2026-02-30'], /--since must be a UTC day YYYY-MM-DD/],
  [['usage', '--data-dir', 'X', '--since', 'yesterday'], /--since must be a UTC day YYYY-MM-DD/],
  [
    ['usage', '--data-dir', 'X', '--since', '9999-01-01'],
    /--since 9999-01-01 is after today \(\d{4}-\d{2}-\d{2} UTC\)/,
  ],
  [['usage', '--data-dir', 'X', '--agent', ''], /--agent must not be empty/],
  [['usage', '--data-dir', ''], /--data-dir must not be empty/],
  [['usage', '--data-dir', 'X', '--days', '3'], /Unknown option '--days'/],
  [['usage', '--data-dir', 'X', 'extra'], /Unexpected argument 'extra'/],
])('%j exits 2 with one line naming the fix', async (argv, message) => {
  const io = captureIo();
  expect(await runCli(argv, { io })).toBe(2);
  expect(io.errLines).toHaveLength(1);
  expect(io.errLines[0]).toMatch(message);
  expect(io.errLines[0]).toMatch(/^agentteam usage: .*; run "agentteam --help"\.$/);
});
