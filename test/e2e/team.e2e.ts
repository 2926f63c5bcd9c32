/**
 * issue 25 in a real browser, with no LLM: two demo agents and the demo's hand-off
 * (`@demo /ask @helper …`: the demo asks the helper and posts what it answered).
 * - the demo's message row says "Demo → @helper"; the status area shows a chip for each agent of
 *   the round, the one an agent asked saying "asked by Demo"; the inspector lists the chain (who
 *   woke whom, each wake's status);
 * - at the hop budget (`limits.agentHops: 1`) the status area says "Agents paused after 1 hand-off
 *   · Continue"; Continue (the operator's `chains.continue`) lets the hand-back through and the demo
 *   posts the helper's answer;
 * - the Team view (nav entry, keyboard reachable): "who needs me" first — an agent waiting for
 *   approval, with a link to where to act — updates live, and works at 390 px;
 * - en and 简体中文, axe on each view.
 */
import type { Page } from '@playwright/test';
import { apiCall, expectNoHorizontalOverflow, useLanguage } from './chat-helpers.js';
import { expect, expectNoSeriousAxeViolations, screenshot, sendFromComposer, statusArea, test } from './fixtures.js';

const teamConfig = (agentHops?: number): Record<string, unknown> => ({
  agents: [
    { id: 'demo', name: 'Demo', runtime: 'demo' },
    { id: 'helper', name: 'Helper', runtime: 'demo' },
  ],
  channels: { local: {} },
  ...(agentHops === undefined ? {} : { limits: { agentHops } }),
});

const chipOf = (page: Page, agent: string) =>
  statusArea(page).locator(`[data-wake]:has(.chip-agent:text-is("${agent}"))`);
const ASKED_BY_DEMO = /asked by Demo|由 Demo 请求/;
const ANSWER_FROM_HELPER = /after Helper's answer|收到 Helper 的回答后/;

for (const language of ['en', 'zh-CN'] as const) {
  test.describe(`a hand-off between agents (${language})`, () => {
    test.use({ config: teamConfig() });

    test('the addressed row, the chips of both agents with who asked, the chain in the inspector', async ({
      app,
      serve,
    }, info) => {
      if (language !== 'en') await useLanguage(app, serve, language);
      await sendFromComposer(app, '@demo /ask @helper what is the build status?');
      // The demo addressed the helper: its row says so.
      const addressed = app.locator('article.message-agent .message-addressed[data-addressed="helper"]').first();
      await expect(addressed).toBeVisible();
      await expect(addressed.locator('[aria-hidden="true"]')).toHaveText('→ @helper');
      // Both agents' chips in the one status area; the helper's says the demo asked it.
      await expect(chipOf(app, 'Helper').locator('.chip-asked-by')).toHaveText(ASKED_BY_DEMO);
      await expect(chipOf(app, 'Helper')).toHaveAttribute('data-status', 'reply_sent');
      await expect(chipOf(app, 'Demo')).toHaveCount(1);
      await expect(chipOf(app, 'Demo')).toHaveAttribute('data-status', /reply_sent|completed_without_visible_reply/);
      // issue 40 item 7: the hand-back reads as what happened — Helper answered, it asked nothing; the demo posted.
      await expect(chipOf(app, 'Demo').locator('.chip-asked-by')).toHaveCount(0);
      await expect(chipOf(app, 'Demo').locator('.chip-answer-from')).toHaveText(ANSWER_FROM_HELPER);
      await expect(chipOf(app, 'Demo')).toHaveAttribute('data-status', 'reply_sent');
      // The demo posted what the helper answered (its message after the hand-back).
      await expect(app.locator('article.message-agent', { hasText: 'Helper answered' }).first()).toBeVisible();
      await screenshot(app, info, `team-handoff-${language}-1280`);
      await expectNoSeriousAxeViolations(app, `hand-off ${language}`);

      // The inspector of the helper's wake: the chain, from the operator's message to the hand-back.
      await chipOf(app, 'Helper').locator('.chip-main').click();
      const chain = app.locator('aside.inspector .chain-view');
      await expect(chain.locator('li[aria-current="step"] .chain-step-who')).toHaveText(/Demo → Helper/);
      // The operator's message mentions both agents, so its two steps come in either order.
      await expect(chain.locator('li .chain-step-who', { hasText: /^(You|你) → Demo$/ })).toHaveCount(1);
      await expect(chain.locator('li').first()).toHaveAttribute('data-cause', 'operator');
      await expect(chain.locator('li[data-cause="hand_back"]').first().locator('.chain-step-who')).toHaveText(
        /Helper → Demo/,
      );
      // Every wake of the chain ended, each with one status; the hops stay within the budget.
      for (const li of await chain.locator('li').all())
        await expect(li).toHaveAttribute('data-status', /reply_sent|completed_without_visible_reply/);
      await expect(chain.locator('.chain-hops')).toHaveAttribute('data-budget', '6');
      const hops = Number(await chain.locator('.chain-hops').getAttribute('data-hops'));
      expect(hops).toBeGreaterThanOrEqual(2);
      expect(hops).toBeLessThanOrEqual(6);
      await screenshot(app, info, `team-chain-inspector-${language}-1280`);
      await expectNoSeriousAxeViolations(app, `chain inspector ${language}`);
      await app.setViewportSize({ width: 390, height: 844 });
      await expectNoHorizontalOverflow(app, `chain inspector 390 ${language}`);
      await screenshot(app, info, `team-chain-inspector-${language}-390`);
    });
  });

  test.describe(`the hop budget and Continue (${language})`, () => {
    test.use({ config: teamConfig(1) });

    test('the chain pauses at the budget, says so, and Continue lets the hand-back through', async ({
      app,
      serve,
    }, info) => {
      if (language !== 'en') await useLanguage(app, serve, language);
      await sendFromComposer(app, '@demo /ask @helper what is the build status?');
      const paused = statusArea(app).locator('[data-chain-status="paused"]');
      await expect(paused).toHaveCount(1);
      await expect(paused.locator('.chip-text')).toHaveText(
        language === 'en' ? 'Agents paused after 1 hand-off' : '智能体已在 1 次交接后暂停',
      );
      // Every wake so far ended: the paused chain leaves none active.
      for (const chip of await statusArea(app).locator('[data-wake]').all())
        await expect(chip).toHaveAttribute('data-status', /reply_sent|completed_without_visible_reply/);
      // The helper answered; the hand-back to the demo is withheld, so the demo has not posted the answer.
      await expect(app.locator('article.message-agent', { hasText: 'You asked' })).not.toHaveCount(0);
      const answered = app.locator('article.message-agent', { hasText: 'Helper answered' });
      await expect(answered).toHaveCount(0);
      await screenshot(app, info, `team-paused-${language}-1280`);
      await expectNoSeriousAxeViolations(app, `paused chain ${language}`);
      await app.setViewportSize({ width: 390, height: 844 });
      await expectNoHorizontalOverflow(app, `paused chain 390 ${language}`);
      await screenshot(app, info, `team-paused-${language}-390`);

      // Continue by keyboard: the hand-back reaches the demo, which posts the answer; the chain has one Continue.
      const button = paused.getByRole('button', { name: /^Continue|^继续/ });
      await button.focus();
      await app.keyboard.press('Enter');
      await expect(answered.first()).toBeVisible();
      await expect(chipOf(app, 'Demo').locator('.chip-answer-from')).toHaveText(ANSWER_FROM_HELPER);
      await expect(chipOf(app, 'Demo')).toHaveAttribute('data-status', /reply_sent|completed_without_visible_reply/);
      type ChainRow = { chainId: string; status: string; hops: number; continues: number };
      // The chain is the operator's message's (contract: an operator message starts a fresh chain).
      const { messages } = await apiCall<{ messages: Array<{ id: string; authorKind: string }> }>(
        app,
        serve,
        'messages.list',
        { target: '#general' },
      );
      const started = messages.find((m) => m.authorKind === 'operator')!.id;
      const listed = async () =>
        (await apiCall<ChainRow[]>(app, serve, 'chains.list', {})).find((c) => c.chainId === started);
      await expect.poll(async () => (await listed())?.continues).toBe(1);
      const after = (await listed())!;
      expect(after.hops).toBeGreaterThanOrEqual(2);
      // The status area says what the daemon says: paused again at the new count (the demo quoted a
      // mention), or nothing when the chain stayed open.
      const now = statusArea(app).locator(`[data-chain="${after.chainId}"]`);
      if (after.status === 'paused')
        await expect(now.locator('.chip-text')).toHaveText(
          language === 'en' ? `Agents paused after ${after.hops} hand-offs` : `智能体已在 ${after.hops} 次交接后暂停`,
        );
      else await expect(now).toHaveCount(0);
    });
  });

  test.describe(`the Team view (${language})`, () => {
    test.use({ config: teamConfig() });

    test('who needs you first, live, with the way to act; by keyboard; at 1280 and 390 px', async ({
      app,
      serve,
    }, info) => {
      if (language !== 'en') await useLanguage(app, serve, language);
      const nav = app.getByRole('navigation', { name: /Conversations|会话/ });
      const team = nav.getByRole('button', { name: /^Team|^团队/ });
      await team.focus();
      await app.keyboard.press('Enter');
      await expect(app.getByRole('heading', { level: 1, name: /^Team$|^团队$/ })).toBeVisible();
      const row = (id: string) => app.locator(`[data-team-agent="${id}"]`);
      await expect(row('demo')).toHaveAttribute('data-team-state', 'idle');
      await expect(row('helper')).toHaveAttribute('data-team-state', 'idle');
      await screenshot(app, info, `team-view-idle-${language}-1280`);

      // The demo asks for approval (a message sent through the API): the Team view moves it to the top, live.
      await apiCall(app, serve, 'messages.send', { target: '#general', content: '@demo /approve' });
      await expect(row('demo')).toHaveAttribute('data-team-state', 'waiting_approval');
      await expect(app.locator('[data-team-agent]').first()).toHaveAttribute('data-team-agent', 'demo');
      await expect(row('demo').locator('.team-state')).toHaveText(/#general/);
      await expect(team.locator('[data-needs-you]')).toHaveText(/^1/);
      await screenshot(app, info, `team-view-needs-you-${language}-1280`);
      await expectNoSeriousAxeViolations(app, `team view ${language}`);
      await app.setViewportSize({ width: 390, height: 844 });
      await expectNoHorizontalOverflow(app, `team view 390 ${language}`);
      await screenshot(app, info, `team-view-needs-you-${language}-390`);
      await expectNoSeriousAxeViolations(app, `team view 390 ${language}`);

      // The row links to where to act: the conversation, with the approval chip.
      await row('demo').getByRole('button').click();
      const approval = statusArea(app).locator('.chip-approval');
      await expect(approval).toHaveCount(1);
      await approval
        .getByRole('button', { name: /^Allow|^允许/ })
        .first()
        .click();
      await expect(statusArea(app).locator('[data-wake]:not(.chip-approval)')).toHaveAttribute(
        'data-status',
        'reply_sent',
      );
      // Back on the Team view (the drawer at 390 px), the demo is idle again.
      await app
        .getByRole('button', { name: /Open conversations|打开会话列表/ })
        .first()
        .click();
      await team.click();
      await expect(row('demo')).toHaveAttribute('data-team-state', 'idle');
      await expect(team.locator('[data-needs-you]')).toHaveCount(0);
    });
  });
}
