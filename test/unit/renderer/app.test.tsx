// @vitest-environment happy-dom
/**
 * The shell's navigation (app.tsx, issue 23: layout and navigation only, the data in the stores):
 * the sidebar's views, the thread beside its conversation, the switcher, a notification's wake,
 * unread counts following what is on screen, and the error banner.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/api/contract.js';
import { Shell } from '../../../renderer/src/app.js';
import {
  conversationFixture,
  fakeClientApi,
  messageFixture,
  type FakeHandlers,
} from '../../fixtures/fake-client-api.js';
import { layOutMessageLists, renderInApp } from '../../fixtures/render-in-app.js';
import { wakeFixture } from '../../fixtures/contract-values.js';

beforeAll(layOutMessageLists);
afterEach(cleanup);

/** The shell over a fake daemon listing #general and #dev, once its first load is in (the sidebar lists #dev). */
async function shell(overrides: Partial<FakeHandlers> = {}) {
  const fake = fakeClientApi(overrides);
  fake.conversations.push(conversationFixture('#dev'));
  renderInApp(<Shell canChooseFolder={false} />, fake);
  const nav = screen.getByRole('navigation', { name: 'Conversations' });
  if (overrides['conversations.list'] === undefined) await within(nav).findByRole('button', { name: /#dev/ });
  return { fake, user: userEvent.setup(), nav };
}
const title = () => screen.getByRole('heading', { level: 1 }).textContent;

describe('the shell', () => {
  it('starts on #general; the sidebar shows a conversation, the agents and the settings', async () => {
    const { user, nav } = await shell();
    expect(title()).toBe('#general');
    await user.click(within(nav).getByRole('button', { name: /#dev/ }));
    expect(title()).toBe('#dev');
    await user.click(within(nav).getByRole('button', { name: 'Agents' }));
    expect(title()).toBe('Agents');
    await user.click(within(nav).getByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
  });

  it('shows the first conversation the daemon lists when #general is not one of them', async () => {
    await shell({ 'conversations.list': async () => [conversationFixture('#build'), conversationFixture('#dev')] });
    await vi.waitFor(() => expect(title()).toBe('#build'));
  });

  it('Reply in thread opens the thread beside its conversation; Esc and Close thread close it', async () => {
    const { fake, user } = await shell();
    await fake.api.messages.send({ target: '#general', content: 'let us talk' });
    const message = (await screen.findByText('let us talk')).closest('article') as HTMLElement;
    await user.click(within(message).getByRole('button', { name: 'Reply in thread' }));
    const pane = await screen.findByRole('complementary', { name: /Thread/ });
    expect(pane.getAttribute('data-thread')).toBe('#general:t100');
    expect(title()).toBe('#general');
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('complementary', { name: /Thread/ })).toBeNull());
    await user.click(within(message).getByRole('button', { name: 'Reply in thread' }));
    await user.click(await screen.findByRole('button', { name: 'Close thread' }));
    expect(screen.queryByRole('complementary', { name: /Thread/ })).toBeNull();
  });

  it('a thread that cannot be started says why in the error banner', async () => {
    const { fake, user } = await shell({
      'threads.start': async () => {
        throw new ApiError('unknown_message', 'That message is gone.');
      },
    });
    await fake.api.messages.send({ target: '#general', content: 'gone soon' });
    const message = (await screen.findByText('gone soon')).closest('article') as HTMLElement;
    await user.click(within(message).getByRole('button', { name: 'Reply in thread' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Something went wrong: Could not open the thread: That message is gone.',
    );
  });

  it('Ctrl+K opens the switcher; choosing a conversation shows it', async () => {
    const { user } = await shell();
    await user.keyboard('{Control>}k{/Control}');
    const switcher = screen.getByRole('dialog', { name: 'Switch conversation' });
    await user.type(within(switcher).getByRole('combobox'), 'dev{Enter}');
    expect(screen.queryByRole('dialog', { name: 'Switch conversation' })).toBeNull();
    expect(title()).toBe('#dev');
  });

  it('a notification’s wake (wake.focusRequested) shows its conversation and its inspector', async () => {
    const wake = wakeFixture({ wakeToken: 'w_7', target: '#dev', status: 'failed', reason: 'cli_exited' });
    const { fake } = await shell({
      'wakes.inspect': async () => ({
        wake,
        events: [],
        promptInputs: [],
        continuedIn: null,
        continues: [],
        audit: [],
      }),
    });
    fake.emit({ name: 'wake.focusRequested', payload: { wakeToken: 'w_7' } });
    await vi.waitFor(() => expect(document.querySelector('aside.inspector')?.getAttribute('data-wake')).toBe('w_7'));
    expect(title()).toBe('#dev');
  });

  it('a message in a conversation off screen is unread until that conversation is shown', async () => {
    const { fake, user, nav } = await shell();
    const dev = within(nav).getByRole('button', { name: /#dev/ });
    fake.emit({ name: 'message.stored', payload: messageFixture({ seq: 1, target: '#dev' }) });
    fake.emit({ name: 'message.stored', payload: messageFixture({ seq: 2, target: '#dev' }) });
    await vi.waitFor(() => expect(dev.querySelector('[data-unread]')?.getAttribute('data-unread')).toBe('2'));
    fake.emit({ name: 'message.stored', payload: messageFixture({ seq: 1 }) });
    await user.click(dev);
    await vi.waitFor(() => expect(dev.querySelector('[data-unread]')).toBeNull());
    expect(
      within(nav)
        .getByRole('button', { name: /#general/ })
        .querySelector('[data-unread]'),
    ).toBeNull();
  });

  it('names a list that could not be loaded in the error banner', async () => {
    await shell({
      'agents.list': async () => {
        throw new ApiError('unavailable', 'The agent daemon could not start.');
      },
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Something went wrong: The agent daemon could not start.',
    );
  });
});
