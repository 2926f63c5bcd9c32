// @vitest-environment happy-dom
/**
 * The message pane (issue 23): one conversation's messages, status area and composer, read from
 * the window's stores — the block the conversation view and the thread pane share.
 */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MessagePane, type MessagePaneProps } from '../../../../renderer/src/components/message-pane.js';
import { fakeClientApi, messageFixture } from '../../../fixtures/fake-client-api.js';
import { layOutMessageLists, renderInApp } from '../../../fixtures/render-in-app.js';
import { wakeFixture } from '../../../fixtures/contract-values.js';
import { ChannelSettingsSchema } from '../../../../shared/config.js';

beforeAll(layOutMessageLists);
afterEach(cleanup);

const pane = (over: Partial<MessagePaneProps> = {}) => (
  <MessagePane
    target="#general"
    title="#general"
    composerLabel="Message #general"
    composerPlaceholder="Message #general — @ to mention"
    focusSeq={null}
    onOpenWake={() => undefined}
    {...over}
  />
);

describe('MessagePane', () => {
  it('shows its conversation’s messages, and what the composer sends comes back as a message', async () => {
    const fake = fakeClientApi();
    fake.messages.push(messageFixture({ seq: 1, content: 'hello there' }));
    renderInApp(pane(), fake);
    expect(await screen.findByText('hello there')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Message #general' }), 'and back{Enter}');
    expect(await screen.findByText('and back')).toBeTruthy();
    expect(fake.requestsOf('messages.send')).toEqual([{ target: '#general', content: 'and back' }]);
    expect(screen.getByRole('log', { name: 'Messages in #general' })).toBeTruthy();
  });

  it('its status area shows the wakes of its own conversation only, and names itself as told', async () => {
    const { fake } = renderInApp(pane({ statusLabel: 'Thread status' }));
    const status = await screen.findByRole('status', { name: 'Thread status' });
    fake.emit({ name: 'wake.status', payload: wakeFixture({ wakeToken: 'w_here', status: 'delivered' }) });
    fake.emit({
      name: 'wake.status',
      payload: wakeFixture({ wakeToken: 'w_away', target: '#dev', status: 'delivered' }),
    });
    await vi.waitFor(() => expect(status.querySelectorAll('[data-wake]')).toHaveLength(1));
    expect(status.querySelector('[data-wake]')?.getAttribute('data-wake')).toBe('w_here');
  });

  it('opens a wake’s inspector from its chip, and dismisses an alert from the store', async () => {
    const onOpenWake = vi.fn();
    const { fake } = renderInApp(pane({ onOpenWake }));
    const status = await screen.findByRole('status');
    fake.emit({
      name: 'wake.status',
      payload: wakeFixture({ wakeToken: 'w_1', status: 'failed', reason: 'cli_exited' }),
    });
    fake.emit({
      name: 'alert.raised',
      payload: {
        id: 'al_1',
        kind: 'delivery_failed',
        target: '#general',
        wakeToken: null,
        responseId: null,
        message: 'The reply could not be delivered.',
        at: '2026-11-30T10:00:00.000Z',
      },
    });
    const user = userEvent.setup();
    await user.click(await within(status).findByRole('button', { name: /^Demo.*complete/ }));
    expect(onOpenWake).toHaveBeenCalledWith('w_1', expect.any(HTMLElement));
    await vi.waitFor(() => expect(status.querySelector('[data-alert="delivery_failed"]')).not.toBeNull());
    await user.click(within(status.querySelector<HTMLElement>('[data-alert]')!).getByRole('button'));
    await vi.waitFor(() => expect(status.querySelector('[data-alert]')).toBeNull());
  });

  it('says what an empty list says, when told', async () => {
    renderInApp(pane({ emptyText: 'No replies yet.' }));
    expect(await screen.findByText('No replies yet.')).toBeTruthy();
  });
});

describe('issue 23: the message limit comes from the daemon (limits.get), never a second literal', () => {
  const forty = 'x'.repeat(40 * 1024);
  const paste = (text: string) =>
    fireEvent.change(screen.getByRole('textbox', { name: 'Message #general' }), { target: { value: text } });
  const sendButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Send' });

  it('under the default 32 KB a 40 KB message is blocked', async () => {
    const { fake } = renderInApp(pane());
    await vi.waitFor(() => expect(fake.requestsOf('limits.get')).toHaveLength(1));
    paste(forty);
    expect(sendButton().disabled).toBe(true);
    expect(screen.getByRole('alert').textContent).toMatch(/Too long to send \(40 of 32 KB\)/);
  });

  it('raised to 100 KB, the composer accepts 40 KB and sends it whole', async () => {
    const fake = fakeClientApi({ 'limits.get': async () => ({ maxMessageBytes: 102_400 }) });
    renderInApp(pane(), fake);
    paste(forty);
    await vi.waitFor(() => expect(sendButton().disabled).toBe(false));
    expect(screen.getByRole('textbox', { name: 'Message #general' }).getAttribute('aria-invalid')).toBeNull();
    await userEvent.setup().click(sendButton());
    await vi.waitFor(() => expect(fake.messages.map((m) => m.content.length)).toEqual([40 * 1024]));
  });
});

describe('issue 39: the empty welcome names the CLIs the daemon offers (agents.installable), the page none', () => {
  const offered = [
    {
      command: 'fixture',
      words: { label: 'Fixture CLI', cli: '`fixture`', login: '', key: '', zh: { label: '夹具 CLI' } },
    },
    { command: 'other', words: { label: 'Other Agent', cli: '`other`', login: '', key: '' } },
  ];
  const settings = (language: 'en' | 'zh-CN') => async () => ({
    language,
    channels: { local: ChannelSettingsSchema.parse({}) },
  });

  it('lists each offered runtime by its descriptor’s words, in English and 简体中文', async () => {
    renderInApp(pane(), fakeClientApi({ 'agents.installable': async () => offered }));
    expect(
      await screen.findByText(
        'No coding CLI agent is set up yet. Install one of Fixture CLI, Other Agent, then add it in agentteam.json.',
      ),
    ).toBeTruthy();
    cleanup();
    renderInApp(
      pane(),
      fakeClientApi({ 'agents.installable': async () => offered, 'settings.get': settings('zh-CN') }),
    );
    expect(
      await screen.findByText(
        '还没有设置编程命令行智能体。请安装 夹具 CLI、Other Agent 中的任一个，然后在 agentteam.json 中添加。',
      ),
    ).toBeTruthy();
  });

  it('names none when the daemon offers none (or cannot say)', async () => {
    const { fake } = renderInApp(pane());
    await vi.waitFor(() => expect(fake.requestsOf('agents.installable')).toHaveLength(1));
    expect(
      await screen.findByText('No coding CLI agent is set up yet. Install one, then add it in agentteam.json.'),
    ).toBeTruthy();
  });
});
