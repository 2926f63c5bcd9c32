/**
 * issue 27 "Budgets", through the assembled daemon and the demo runtime (which reports a demo's
 * usage per turn): an agent past its daily token budget holds its next wake `paused`
 * (`daily_budget`); the operator's Raise budget (`agents.raiseBudget`) writes the new budget into
 * agentteam.json — only that key, no "restart to apply" — and the waiting wake is released and
 * ends `reply_sent` once. issue 39: removing the budget from the app (`budget: null`) deletes that key
 * from the file — its comments stay — and releases a held wake the same way. At
 * 80 % of the budget the operator is warned once, in the conversation of the wake that crossed it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, expect, it } from 'vitest';
import { ApiError, type Alert } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { nextUtcMidnight } from '../../../shared/usage.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { sendAndWake, wakeWhere } from '../../fixtures/daemon-wakes.js';

let daemon: Daemon | null = null;
let dir = '';
afterEach(async () => {
  await daemon?.stop();
  daemon = null;
  await rm(dir, { recursive: true, force: true });
});

it('a reached budget holds the next wake; raising it in agentteam.json releases the wake, which replies once', async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentteam-raise-budget-'));
  const file = join(dir, 'agentteam.json');
  // One demo turn reports far more than 10 tokens (its prompt alone is hundreds of characters).
  await writeFile(
    file,
    `${JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', budget: { tokens: 10 } }] }, null, 2)}\n`,
  );
  const d = await createDaemon({ dataDir: dir });
  daemon = d;

  const first = await sendAndWake(d, '@demo hi');
  expect((await wakeWhere(d, first, (w) => isTerminal(w.status))).status).toBe('reply_sent');
  // The turn's usage comes at its end, after the reply: wait until the budget says reached.
  const usageUpdated = firstValueFrom(d.events$.pipe(filter((e) => e.name === 'usage.updated')), {
    defaultValue: null,
  });
  if (!(await d.api['usage.summary']({ agentId: 'demo' })).budgets[0]?.state.reached) await usageUpdated;
  const before = (await d.api['usage.summary']({ agentId: 'demo' })).budgets[0];
  expect(before?.state).toMatchObject({ reached: true, kind: 'tokens', limit: 10 });
  const used = before?.state.used ?? 0;
  expect(used).toBeGreaterThan(10);

  const second = await sendAndWake(d, '@demo again');
  const paused = await wakeWhere(d, second, (w) => w.status === 'paused');
  expect(paused.reason).toBe('daily_budget');
  // The API says until when (the budget's day ends at the next UTC midnight), no text to parse.
  expect(paused.pausedUntil).toBe(nextUtcMidnight(new Date(paused.createdAt)));

  const raised = used * 10;
  await d.api['agents.raiseBudget']({ agentId: 'demo', budget: { tokens: raised } });
  const end = await wakeWhere(d, second, (w) => isTerminal(w.status));
  expect(end.status).toBe('reply_sent');
  expect(end.pausedUntil).toBeNull();
  const statuses = (await d.api['wakes.inspect']({ wakeToken: second })).events
    .filter((e) => e.kind === 'status')
    .map((e) => e.status);
  expect(statuses.filter((s) => s !== null && isTerminal(s))).toEqual(['reply_sent']);
  const replies = (await d.api['messages.list']({ target: '#general' })).messages.filter((m) => m.authorId === 'demo');
  expect(replies).toHaveLength(2);

  // Only the budget key changed in the file; it applies at once (no "restart to apply").
  const written = JSON.parse(await readFile(file, 'utf8')) as { agents: Array<Record<string, unknown>> };
  expect(written.agents).toEqual([{ id: 'demo', name: 'Demo', runtime: 'demo', budget: { tokens: raised } }]);
  expect((await d.api['settings.get']({})).config?.restartNeeded).toEqual([]);
  expect((await d.api['usage.summary']({ agentId: 'demo' })).budgets[0]).toMatchObject({
    budget: { tokens: raised },
    state: { reached: false, limit: raised },
  });

  await expect(d.api['agents.raiseBudget']({ agentId: 'nobody', budget: { tokens: 5 } })).rejects.toBeInstanceOf(
    ApiError,
  );
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(written);
}, 60_000);

it('issue 39: removing a reached budget from the app deletes the key (comments kept) and releases the held wake', async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentteam-remove-budget-'));
  const file = join(dir, 'agentteam.json');
  // The person's file: JSON with comments and a trailing comma, which the removal leaves as written.
  const text = [
    '{',
    '  // the team',
    '  "agents": [',
    '    {',
    '      "id": "demo", // the one that replies',
    '      "name": "Demo",',
    '      "runtime": "demo",',
    '      // at most this a day',
    '      "budget": { "tokens": 10 },',
    '    },',
    '  ],',
    '}',
    '',
  ].join('\n');
  await writeFile(file, text);
  const d = await createDaemon({ dataDir: dir });
  daemon = d;

  const first = await sendAndWake(d, '@demo hi');
  expect((await wakeWhere(d, first, (w) => isTerminal(w.status))).status).toBe('reply_sent');
  const usageUpdated = firstValueFrom(d.events$.pipe(filter((e) => e.name === 'usage.updated')), {
    defaultValue: null,
  });
  if (!(await d.api['usage.summary']({ agentId: 'demo' })).budgets[0]?.state.reached) await usageUpdated;
  const second = await sendAndWake(d, '@demo again');
  expect((await wakeWhere(d, second, (w) => w.status === 'paused')).reason).toBe('daily_budget');

  await d.api['agents.raiseBudget']({ agentId: 'demo', budget: null });
  const end = await wakeWhere(d, second, (w) => isTerminal(w.status));
  expect(end.status).toBe('reply_sent');
  const statuses = (await d.api['wakes.inspect']({ wakeToken: second })).events
    .filter((e) => e.kind === 'status')
    .map((e) => e.status);
  expect(statuses.filter((s) => s !== null && isTerminal(s))).toEqual(['reply_sent']);

  // Exactly the budget's line left the file; every comment and the trailing commas stay.
  expect(await readFile(file, 'utf8')).toBe(text.replace('      "budget": { "tokens": 10 },\n', ''));
  expect((await d.api['settings.get']({})).config?.restartNeeded).toEqual([]);
  expect((await d.api['usage.summary']({ agentId: 'demo' })).budgets[0]).toMatchObject({
    budget: null,
    state: { reached: false },
  });
  // Removing it again writes nothing.
  await d.api['agents.raiseBudget']({ agentId: 'demo', budget: null });
  expect(await readFile(file, 'utf8')).toBe(text.replace('      "budget": { "tokens": 10 },\n', ''));
}, 60_000);

it("80 % of the daily budget warns the operator once: an alert in the conversation, on the wake's timeline", async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentteam-budget-warning-'));
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }] }),
  );
  const d = await createDaemon({ dataDir: dir });
  daemon = d;
  const alerts: Alert[] = [];
  const sub = d.events$.subscribe((e) => {
    if (e.name === 'alert.raised') alerts.push(e.payload);
  });
  const usedNow = async () => (await d.api['usage.summary']({ agentId: 'demo' })).budgets[0]?.state.used ?? 0;
  const settledUsage = async (above: number) => {
    const updated = firstValueFrom(d.events$.pipe(filter((e) => e.name === 'usage.updated')), { defaultValue: null });
    if ((await usedNow()) <= above) await updated;
    return usedNow();
  };

  // A first turn without a budget: what one demo turn uses here.
  const first = await sendAndWake(d, '@demo hi');
  expect((await wakeWhere(d, first, (w) => isTerminal(w.status))).status).toBe('reply_sent');
  const one = await settledUsage(0);
  // A budget the next turn crosses 80 % of (and no warning on the edit itself: nothing was used since).
  const limit = Math.round(one * 1.9);
  await d.api['agents.raiseBudget']({ agentId: 'demo', budget: { tokens: limit } });
  expect(alerts).toEqual([]);

  const second = await sendAndWake(d, '@demo hi');
  expect((await wakeWhere(d, second, (w) => isTerminal(w.status))).status).toBe('reply_sent');
  const used = await settledUsage(one);
  expect(used).toBeGreaterThanOrEqual(limit * 0.8);
  sub.unsubscribe();
  expect(alerts).toEqual([
    expect.objectContaining({
      kind: 'usage_warning',
      target: '#general',
      wakeToken: second,
      agentName: 'Demo',
      message: `Demo · daily token budget at ${Math.round((used / limit) * 100)} % (${used} / ${limit})`,
    }),
  ]);
  const timeline = (await d.api['wakes.inspect']({ wakeToken: second })).events.filter((e) => e.kind === 'alert');
  expect(timeline.map((e) => e.detail)).toEqual([`usage_warning: ${alerts[0]?.message}`]);
}, 60_000);
