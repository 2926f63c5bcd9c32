/**
 * issue 27 "Limits the provider announces", through the real Codex CLI: the fake OpenAI server
 * answers with the provider's rate-limit headers (`x-codex-primary-*`, `x-codex-secondary-*`, as
 * the Codex binary reads them); Codex announces the windows (`account/rateLimits/updated`), the
 * daemon keeps them per agent (`usage.summary` limits) and, at 80 %, warns the operator once in
 * the conversation the agent was working in.
 */
import { afterEach, expect, it } from 'vitest';
import type { Alert } from '../../../shared/api/contract.js';
import { DaemonHarness } from '../../fixtures/daemon-harness.js';

let harness: DaemonHarness | null = null;
afterEach(async () => {
  await harness?.dispose();
  harness = null;
}, 60_000);

const RESET = 1_900_000_000;

it('codex: the windows the provider announced are kept, and 80 % warns once', async () => {
  const h = await DaemonHarness.start('codex', {
    modelHeaders: {
      'x-codex-primary-used-percent': '82',
      'x-codex-primary-window-minutes': '300',
      'x-codex-primary-reset-at': String(RESET),
      'x-codex-secondary-used-percent': '35',
      'x-codex-secondary-window-minutes': '10080',
      'x-codex-secondary-reset-at': String(RESET + 86_400),
    },
  });
  harness = h;
  await h.ready(60_000);
  const { wakeToken } = await h.send('#general', 'hello [[tool]]');
  expect((await h.terminal(wakeToken, 90_000)).status).toBe('reply_sent');
  await h.idle(60_000);
  const limits = (await h.api['usage.summary']({ agentId: h.agentId })).limits;
  console.info(`codex announced: ${JSON.stringify(limits)}`);
  expect(limits.map(({ observedAt: _o, ...w }) => w)).toEqual([
    {
      agentId: h.agentId,
      runtime: 'codex',
      window: 'primary',
      windowMinutes: 300,
      usedPercent: 82,
      resetsAt: new Date(RESET * 1000).toISOString(),
    },
    {
      agentId: h.agentId,
      runtime: 'codex',
      window: 'secondary',
      windowMinutes: 10_080,
      usedPercent: 35,
      resetsAt: new Date((RESET + 86_400) * 1000).toISOString(),
    },
  ]);
  const warnings = h.events
    .filter((e) => e.name === 'alert.raised')
    .map((e) => e.payload as Alert)
    .filter((a) => a.kind === 'usage_warning');
  expect(warnings).toHaveLength(1);
  // In the conversation the agent was working in when the provider announced it.
  expect(warnings[0]?.target).toBe('#general');
  expect(warnings[0]?.message).toMatch(/^Conformance codex · 5-hour window at 82 % · resets \d\d:\d\d UTC$/);
}, 240_000);
