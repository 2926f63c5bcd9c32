/**
 * issue 41 "budgets … stop a turn beyond them", through the assembled daemon and the demo runtime:
 * `/slow` reports the usage of what it read before its long quiet task (as a runtime reporting per
 * model request does), and its task is far longer than the test, so the turn would go on. That
 * report reaches the agent's small daily token budget: the daemon ends the turn through the
 * runtime's own interrupt (the Stop / turn-timeout path) and the wake ends `failed /
 * budget_reached`, naming the budget; the next message is refused a start, visibly: `paused /
 * daily_budget`, and Raise budget releases it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { sendAndWake, wakeWhere } from '../../fixtures/daemon-wakes.js';

let daemon: Daemon | null = null;
let dir = '';
afterEach(async () => {
  await daemon?.stop();
  daemon = null;
  await rm(dir, { recursive: true, force: true });
});

it('a usage report that reaches the daily budget ends the running turn: failed / budget_reached; the next wake waits paused', async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentteam-budget-stop-'));
  // The demo's prompt alone is hundreds of characters: its first report is far past 10 tokens.
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [
        {
          id: 'demo',
          name: 'Demo',
          runtime: 'demo',
          budget: { tokens: 10 },
          // A quiet task far longer than the test: the turn never ends by itself.
          env: { DEMO_TASK_MS: String(3_600_000) },
        },
      ],
    }),
  );
  const d = await createDaemon({ dataDir: dir });
  daemon = d;

  const first = await sendAndWake(d, '@demo /slow a long one');
  const end = await wakeWhere(d, first, (w) => isTerminal(w.status));
  expect(end).toMatchObject({ status: 'failed', reason: 'budget_reached' });
  const state = (await d.api['usage.summary']({ agentId: 'demo' })).budgets[0]?.state;
  expect(state).toMatchObject({ reached: true, kind: 'tokens', limit: 10 });
  expect(end.detail).toBe(
    `the agent's daily budget (10 tokens) was reached during this turn (${state?.used} tokens used today); Raise budget to continue`,
  );
  // Nothing was posted for it: the task was cut short, not finished.
  expect((await d.api['messages.list']({ target: '#general' })).messages.filter((m) => m.authorId === 'demo')).toEqual(
    [],
  );
  // Only that turn's wake ended; the agent is idle again.
  const agent = (await d.api['agents.list']({})).find((a) => a.id === 'demo');
  expect(agent?.state).toBe('idle');

  const second = await sendAndWake(d, '@demo hello again');
  const paused = await wakeWhere(d, second, (w) => w.status === 'paused');
  expect(paused.reason).toBe('daily_budget');

  // Raise budget: the waiting wake goes on and is answered.
  await d.api['agents.raiseBudget']({ agentId: 'demo', budget: { tokens: 1_000_000 } });
  expect((await wakeWhere(d, second, (w) => isTerminal(w.status))).status).toBe('reply_sent');
}, 60_000);
