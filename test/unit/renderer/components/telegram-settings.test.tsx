// @vitest-environment happy-dom
/** The Telegram section of Settings (issue 18): health and counts, bindings; add one, remove one added here. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TelegramStatus } from '../../../../shared/telegram-status.js';
import { TelegramSettings, parseIds } from '../../../../renderer/src/components/telegram-settings.js';
import {
  notConfiguredTelegram,
  telegramRequests,
  telegramScript,
  type TelegramScript,
} from '../../../fixtures/telegram-status.js';
import { ok, scriptedClientApi } from '../../../fixtures/scripted-client-api.js';

afterEach(cleanup);

const polling: TelegramStatus = {
  ...notConfiguredTelegram(),
  configured: true,
  state: 'polling',
  detail: null,
  bot: { id: 7, username: 'team_bot' },
  inbound: { accepted: 5, ignored: 1, duplicates: 2 },
  outbound: { delivered: 9, failedFinal: 1, uncertain: 3 },
  bindings: [
    { chatId: -100, target: '#general', allowFrom: [501, 502], source: 'config' },
    { chatId: 42, target: 'dm:@claude', allowFrom: [501], source: 'settings' },
  ],
};

function setup(script: TelegramScript, language: 'en' | 'zh-CN' = 'en') {
  const fake = scriptedClientApi(telegramScript({ status: () => ok(polling), ...script }));
  render(<TelegramSettings api={fake.api.channels} language={language} />);
  return fake;
}
const row = (chatId: number) => document.querySelector(`tr[data-chat="${chatId}"]`) as HTMLElement;
const status = () => document.querySelector('.telegram-status')?.textContent;

describe('TelegramSettings', () => {
  it('shows the health, the bot and the counts in and out', async () => {
    setup({});
    await screen.findByText('● Connected');
    const health = document.querySelector('.telegram-health') as HTMLElement;
    expect(health.getAttribute('data-state')).toBe('polling');
    expect(health.querySelector('.chip')?.textContent).toBe('● Connected');
    expect(health.textContent).toContain('Bot: @team_bot');
    expect(screen.getByText('From the chats: 5 received · 1 ignored · 2 duplicates skipped')).toBeTruthy();
    expect(screen.getByText('To the chats: 9 delivered · 1 not delivered · 3 unconfirmed')).toBeTruthy();
  });

  it('says how to set it up, as the daemon words it, when not configured', async () => {
    setup({ status: () => ok(notConfiguredTelegram()) });
    expect(await screen.findByText('○ Not set up')).toBeTruthy();
    expect(screen.getByText(/Add "channels.telegram"/).className).toBe('detail');
    expect(screen.getByText('No conversation is bound to a Telegram chat.')).toBeTruthy();
  });

  it('lists the bindings; only one added here can be removed', async () => {
    const fake = setup({ removeBinding: () => ok({ ...polling, bindings: polling.bindings.slice(0, 1) }) });
    await vi.waitFor(() => expect(row(42)).toBeTruthy());
    expect([...row(-100).querySelectorAll('td')].map((c) => c.textContent)).toEqual([
      '-100',
      '#general',
      '501, 502',
      'agentteam.json',
      '',
    ]);
    expect(within(row(42)).getByText('Added here')).toBeTruthy();
    await userEvent.click(within(row(42)).getByRole('button', { name: 'Remove' }));
    await vi.waitFor(() => expect(status()).toBe('Binding removed'));
    expect(telegramRequests(fake, 'removeBinding')).toEqual([{ chatId: 42 }]);
    expect(row(42)).toBeNull();
  });

  it('adds a binding from whole numbers, then clears the chat id', async () => {
    const fake = setup({ addBinding: () => ok(polling) });
    const chat = screen.getByRole('textbox', { name: 'Chat id' }) as HTMLInputElement;
    await userEvent.type(chat, ' -2001 ');
    const target = screen.getByRole('textbox', { name: 'Conversation' });
    await userEvent.clear(target);
    await userEvent.type(target, '#build ');
    await userEvent.type(screen.getByRole('textbox', { name: 'Allowed user ids (comma-separated)' }), '501, 502 503');
    await userEvent.click(screen.getByRole('button', { name: 'Add binding' }));
    await vi.waitFor(() => expect(status()).toBe('Binding added'));
    expect(telegramRequests(fake, 'addBinding')).toEqual([
      { chatId: -2001, target: '#build', allowFrom: [501, 502, 503] },
    ]);
    expect(chat.value).toBe('');
  });

  it('refuses ids that are not whole numbers without asking the daemon', async () => {
    const fake = setup({});
    await userEvent.type(screen.getByRole('textbox', { name: 'Chat id' }), '12.5');
    await userEvent.type(screen.getByRole('textbox', { name: 'Allowed user ids (comma-separated)' }), '1{Enter}');
    expect(status()).toBe('Not saved: The chat id and the user ids must be whole numbers.');
    expect(telegramRequests(fake, 'addBinding')).toEqual([]);
  });

  it("shows the daemon's refusal and its errors as text", async () => {
    setup({
      status: () => ok({ ...polling, state: 'error', lastSendError: '<b>403</b> Forbidden' }),
      addBinding: () => ({ ok: false, code: 'config_invalid', message: 'chat 42 is bound twice' }),
    });
    await vi.waitFor(() => expect(document.querySelector('pre.detail')?.textContent).toBe('<b>403</b> Forbidden'));
    expect(document.querySelector('pre.detail b')).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Chat id' }), '42');
    await userEvent.type(screen.getByRole('textbox', { name: 'Allowed user ids (comma-separated)' }), '1{Enter}');
    await vi.waitFor(() => expect(status()).toBe('Not saved: chat 42 is bound twice'));
  });

  it('Refresh asks again; speaks 简体中文', async () => {
    const fake = setup({}, 'zh-CN');
    await screen.findByText('● 已连接');
    await userEvent.click(screen.getByRole('button', { name: '刷新' }));
    await vi.waitFor(() => expect(telegramRequests(fake, 'status')).toHaveLength(2));
    expect(screen.getByRole('button', { name: '添加绑定' })).toBeTruthy();
  });
});

describe('parseIds', () => {
  it('reads comma- or space-separated whole numbers, else null', () => {
    expect(parseIds('501, 502 503')).toEqual([501, 502, 503]);
    expect(parseIds('-5')).toEqual([-5]);
    expect(parseIds('')).toBeNull();
    expect(parseIds('1, x')).toBeNull();
    expect(parseIds('1.5')).toBeNull();
  });
});

describe('TelegramSettings: a binding names a conversation that exists; errors in words (issue 40 item 9)', () => {
  it('refuses a conversation that does not exist, without asking the daemon (en and 简体中文)', async () => {
    const fake = scriptedClientApi(telegramScript({ status: () => ok(polling), addBinding: () => ok(polling) }));
    render(<TelegramSettings api={fake.api.channels} language="en" conversations={['#general', '#build']} />);
    const target = screen.getByRole('textbox', { name: 'Conversation' });
    await userEvent.clear(target);
    await userEvent.type(target, '#phnoe');
    await userEvent.type(screen.getByRole('textbox', { name: 'Chat id' }), '2002');
    await userEvent.type(screen.getByRole('textbox', { name: 'Allowed user ids (comma-separated)' }), '501{Enter}');
    expect(status()).toBe('Not saved: There is no conversation #phnoe. Create it first (+ New channel), then bind it.');
    expect(telegramRequests(fake, 'addBinding')).toEqual([]);
    await userEvent.clear(target);
    await userEvent.type(target, '#build{Enter}');
    await vi.waitFor(() => expect(status()).toBe('Binding added'));
    expect(telegramRequests(fake, 'addBinding')).toEqual([{ chatId: 2002, target: '#build', allowFrom: [501] }]);
    cleanup();
    const zh = scriptedClientApi(telegramScript({ status: () => ok(polling) }));
    render(<TelegramSettings api={zh.api.channels} language="zh-CN" conversations={['#general']} />);
    await userEvent.type(screen.getByRole('textbox', { name: '聊天 ID' }), '1');
    await userEvent.clear(screen.getByRole('textbox', { name: '会话' }));
    await userEvent.type(screen.getByRole('textbox', { name: '会话' }), '#x');
    await userEvent.type(screen.getByRole('textbox', { name: '允许的用户 ID（逗号分隔）' }), '1{Enter}');
    expect(status()).toContain('没有会话 #x。');
  });

  it('a send error reads as a sentence; the raw connection error is under Details', async () => {
    setup({ status: () => ok({ ...polling, lastSendError: 'not_written: ENOTFOUND api.telegram.org' }) });
    const sentence = await screen.findByText(
      'The last message to Telegram was not delivered. Check the network and the bot token.',
    );
    expect(sentence).toBeTruthy();
    const details = document.querySelector('.telegram-send-error details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('Details');
    expect(details.querySelector('pre')?.textContent).toBe('not_written: ENOTFOUND api.telegram.org');
  });
});
