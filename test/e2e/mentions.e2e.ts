/**
 * issue 40 item 2: the composer completes agent names, and a mention that matches no agent is
 * named under the composer before it is sent (it wakes nobody); the first send is held, Enter
 * again sends it as plain text. In Debian Chromium against the real `agentteam serve`.
 */
import { expectNoHorizontalOverflow, mainLog, useLanguage } from './chat-helpers.js';
import { expect, expectNoSeriousAxeViolations, screenshot, statusArea, test } from './fixtures.js';

test.use({
  config: {
    agents: [
      { id: 'demo', name: 'Demo', runtime: 'demo' },
      { id: 'helper', name: 'Helper', runtime: 'demo' },
    ],
    channels: { local: {} },
  },
});

const WARNING = {
  en: '@nobody is not an agent here — it wakes nobody. Agents: @demo, @helper.',
  'zh-CN': '@nobody 不是这里的智能体，不会唤醒任何人。智能体：@demo、@helper。',
} as const;
const HELD = {
  en: ' Not sent yet: press Enter again to send it as plain text.',
  'zh-CN': '尚未发送：再按一次 Enter 即按普通文本发送。',
} as const;

test('"@de" completes to @demo; "@nobody" is named before it is sent, and sent only on a second Enter', async ({
  app,
  serve,
}, info) => {
  const box = app.getByRole('textbox', { name: /^Message |^发送到 / });
  const warning = app.locator('main .composer-warning');

  // Completion: a listbox the textarea controls; Enter picks the active option without sending.
  await box.focus();
  await app.keyboard.type('@de');
  const list = app.getByRole('listbox', { name: 'Agents to mention' });
  await expect(list.getByRole('option')).toHaveText(['@demo Demo']);
  await expect(box).toHaveAttribute('aria-controls', (await list.getAttribute('id'))!);
  await expect(box).toHaveAttribute('aria-activedescendant', (await list.getByRole('option').getAttribute('id'))!);
  await expect(warning).toHaveText(''); // "@de" is still being typed
  await app.keyboard.press('Enter');
  await expect(box).toHaveValue('@demo ');
  await expect(list).toBeHidden();
  await app.keyboard.type('hello');
  await app.keyboard.press('Enter');
  await expect(box).toHaveValue('');
  await expect(statusArea(app).locator('[data-status="reply_sent"]')).toHaveCount(1);

  // A mention of nobody: named as soon as it is typed, the first Enter holds, the second sends.
  for (const width of [1280, 390]) {
    await app.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
    for (const language of ['en', 'zh-CN'] as const) {
      await useLanguage(app, serve, language);
      await box.focus();
      await app.keyboard.type('@nobody can you help?');
      await expect(warning).toHaveText(WARNING[language]);
      await app.keyboard.press('Enter');
      await expect(warning).toHaveText(WARNING[language] + HELD[language]);
      await expect(box).toHaveValue('@nobody can you help?');
      await expect(app.getByRole('button', { name: language === 'en' ? 'Send anyway' : '仍然发送' })).toBeVisible();
      await expectNoHorizontalOverflow(app, `composer warning ${language} ${width}`);
      await expectNoSeriousAxeViolations(app, `composer warning ${language} ${width}`);
      await screenshot(app, info, `mention-unknown-${language}-${width}`);
      await box.fill('');
    }
  }

  // Sent anyway on the second Enter: posted as plain text, and no agent is woken by it.
  await useLanguage(app, serve, 'en');
  await box.focus();
  await app.keyboard.type('@nobody can you help?');
  await app.keyboard.press('Enter');
  await expect(box).toHaveValue('@nobody can you help?');
  await app.keyboard.press('Enter');
  await expect(box).toHaveValue('');
  await expect(warning).toHaveText('');
  const posted = mainLog(app).locator('article.message-operator').last();
  await expect(posted).toContainText('@nobody can you help?');
  await expect(posted.locator('.mention')).toHaveCount(0);
  const wakes = JSON.parse((await serve.cli('wakes', '--json')).stdout) as unknown[];
  expect(wakes).toHaveLength(1); // only "@demo hello"
});
