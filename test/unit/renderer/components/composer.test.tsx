// @vitest-environment happy-dom
/** The composer: Enter sends, Shift+Enter is a new line, "@" completes an agent, the byte budget blocks. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer, type ComposerProps } from '../../../../renderer/src/components/composer.js';
import { agentOf } from '../../../fixtures/contract-values.js';

afterEach(cleanup);

const agents = [agentOf({ id: 'claude', name: 'Claude' }), agentOf({ id: 'codex', name: 'Codex', runtime: 'codex' })];

function setup(over: Partial<ComposerProps> = {}) {
  const onSend = vi.fn<(content: string) => Promise<string | null>>(async () => null);
  render(<Composer target="#general" agents={agents} language="en" onSend={onSend} {...over} />);
  return { onSend: (over.onSend as typeof onSend | undefined) ?? onSend, input: screen.getByRole('textbox') };
}
const sendButton = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;

describe('Composer', () => {
  it('is named after its conversation, or as its pane says (en and 简体中文)', () => {
    const { input } = setup();
    expect(input.getAttribute('aria-label')).toBe('Message #general');
    expect(input.getAttribute('placeholder')).toBe('Message #general — @ to mention');
    expect(screen.getByText('Enter to send · Shift+Enter for a new line')).toBeTruthy();
    cleanup();
    setup({ label: 'Reply in thread', placeholder: 'Reply… — @ to mention' });
    expect(screen.getByRole('textbox', { name: 'Reply in thread' }).getAttribute('placeholder')).toBe(
      'Reply… — @ to mention',
    );
    cleanup();
    setup({ language: 'zh-CN' });
    expect(screen.getByRole('textbox', { name: '发送到 #general' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '发送' })).toBeTruthy();
  });

  it('Enter sends the trimmed text and clears the field once sent', async () => {
    const { onSend, input } = setup();
    await userEvent.type(input, '  hello team  {Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('hello team');
    await vi.waitFor(() => expect((input as HTMLTextAreaElement).value).toBe(''));
    expect(document.activeElement).toBe(input);
  });

  it('Shift+Enter is a new line, not a send', async () => {
    const { onSend, input } = setup();
    await userEvent.type(input, 'one{Shift>}{Enter}{/Shift}two');
    expect((input as HTMLTextAreaElement).value).toBe('one\ntwo');
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.click(sendButton());
    expect(onSend).toHaveBeenCalledExactlyOnceWith('one\ntwo');
  });

  it('an empty or blank message cannot be sent', async () => {
    const { onSend, input } = setup();
    expect(sendButton().disabled).toBe(true);
    await userEvent.type(input, '   {Enter}');
    expect(sendButton().disabled).toBe(true);
    expect(onSend).not.toHaveBeenCalled();
  });

  it('Enter that confirms an IME candidate does not send', () => {
    const { onSend, input } = setup();
    fireEvent.change(input, { target: { value: '你好' } });
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    expect(onSend).not.toHaveBeenCalled();
  });

  it('keeps the text and says why when the send is refused; sends once while sending', async () => {
    const answer = Promise.withResolvers<string | null>();
    const onSend = vi.fn(() => answer.promise);
    const { input } = setup({ onSend });
    await userEvent.type(input, 'hello{Enter}');
    expect(sendButton().disabled).toBe(true);
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledTimes(1);
    answer.resolve('content_too_large');
    expect((await screen.findByRole('alert')).textContent).toBe('Not sent: content_too_large');
    expect((input as HTMLTextAreaElement).value).toBe('hello');
  });

  it('"@" lists the agents; arrows move, Enter completes the mention without sending', async () => {
    const { onSend, input } = setup();
    await userEvent.type(input, 'ask @c');
    const list = screen.getByRole('listbox', { name: 'Agents to mention' });
    expect([...list.querySelectorAll('[role="option"]')].map((o) => o.textContent)).toEqual([
      '@claude Claude',
      '@codex Codex',
    ]);
    await userEvent.keyboard('{ArrowDown}');
    const codex = screen.getByRole('option', { name: '@codex Codex' });
    expect(codex.getAttribute('aria-selected')).toBe('true');
    expect(input.getAttribute('aria-activedescendant')).toBe(codex.id);
    await userEvent.keyboard('{Enter}');
    expect((input as HTMLTextAreaElement).value).toBe('ask @codex ');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('Tab also completes, ArrowUp wraps, and Escape closes the list keeping the text', async () => {
    const { input } = setup();
    await userEvent.type(input, '@');
    await userEvent.keyboard('{ArrowUp}');
    expect(screen.getByRole('option', { name: '@codex Codex' }).getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect((input as HTMLTextAreaElement).value).toBe('@');
    await userEvent.type(input, 'cl');
    await userEvent.keyboard('{Tab}');
    expect((input as HTMLTextAreaElement).value).toBe('@claude ');
  });

  it('counts bytes near the limit and blocks a message over it', async () => {
    const { input, onSend } = setup();
    fireEvent.change(input, { target: { value: 'a'.repeat(25_000) } });
    const counter = document.querySelector('.byte-counter') as HTMLElement;
    expect(counter.textContent).toBe('24.4 of 32 KB');
    expect(counter.getAttribute('role')).toBeNull();
    expect(sendButton().disabled).toBe(false);
    fireEvent.change(input, { target: { value: '字'.repeat(11_000) } }); // 33,000 bytes
    expect(screen.getByRole('alert').textContent).toBe(
      'Too long to send (32.2 of 32 KB). Shorten it or split it into several messages.',
    );
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(sendButton().disabled).toBe(true);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
  });

  it('issue 40 item 2: names a mention that matches no agent, holds the first send, sends on the second', async () => {
    const { input, onSend } = setup();
    const warning = () => document.querySelector('.composer-warning')!.textContent;
    await userEvent.type(input, '@nob');
    expect(warning()).toBe(''); // still being typed
    await userEvent.type(input, 'ody can you help?');
    expect(warning()).toBe('@nobody is not an agent here — it wakes nobody. Agents: @claude, @codex.');
    expect(input.getAttribute('aria-describedby')).toContain(document.querySelector('.composer-warning')!.id);
    await userEvent.keyboard('{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(warning()).toBe(
      '@nobody is not an agent here — it wakes nobody. Agents: @claude, @codex. Not sent yet: press Enter again to send it as plain text.',
    );
    expect(screen.getByRole('button', { name: 'Send anyway' })).toBeTruthy();
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('@nobody can you help?');
    await vi.waitFor(() => expect(warning()).toBe(''));
    expect(sendButton().textContent).toBe('Send');
  });

  it('an edit after the hold holds again; a known mention (any case) or none is sent at once', async () => {
    const { input, onSend } = setup();
    await userEvent.type(input, '@ghost hi{Enter}');
    await userEvent.type(input, '!{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.clear(input);
    await userEvent.type(input, 'ask @Claude, mail ops@nobody.dev{Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('ask @Claude, mail ops@nobody.dev');
  });

  it('names several unknown mentions, in 简体中文 too, and says when there are no agents', async () => {
    const { input } = setup({ language: 'zh-CN', agents: [] });
    await userEvent.type(input, '@a @b 你好');
    expect(document.querySelector('.composer-warning')!.textContent).toBe(
      '@a、@b 不是这里的智能体，不会唤醒任何人。智能体：暂无。',
    );
  });

  it('completes by display name as well as by id', async () => {
    const { input } = setup({ agents: [...agents, agentOf({ id: 'oc', name: 'OpenCode', runtime: 'opencode' })] });
    await userEvent.type(input, '@open');
    expect(screen.getByRole('option', { name: '@oc OpenCode' }).getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Enter}');
    expect((input as HTMLTextAreaElement).value).toBe('@oc ');
    expect(document.querySelector('.composer-warning')!.textContent).toBe('');
  });
});
