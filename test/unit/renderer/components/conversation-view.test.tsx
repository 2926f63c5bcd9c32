// @vitest-environment happy-dom
/** The conversation view (issue 17; issue 23: its pane from the stores): header, title, back link, reply in thread. */
import { cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConversationView, type ConversationViewProps } from '../../../../renderer/src/components/conversation-view.js';
import { demoAgent, fakeClientApi, messageFixture } from '../../../fixtures/fake-client-api.js';
import { layOutMessageLists, renderInApp } from '../../../fixtures/render-in-app.js';

beforeAll(layOutMessageLists);
afterEach(cleanup);

function view(over: Partial<ConversationViewProps> = {}) {
  const props = {
    onOpenWake: vi.fn(),
    onReplyInThread: vi.fn(),
    onOpenConversation: vi.fn(),
    onOpenDrawer: vi.fn(),
    ...over,
  };
  return { props, ui: <ConversationView target="#general" {...props} /> };
}

describe('ConversationView', () => {
  it('a channel: its title, the header tools slot, the drawer button, and Reply in thread on each message', async () => {
    const fake = fakeClientApi();
    fake.messages.push(messageFixture({ seq: 1, content: 'start a thread here' }));
    const { props, ui } = view({ headerTools: <button type="button">Search</button> });
    renderInApp(ui, fake);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('#general');
    expect(screen.getByRole('button', { name: 'Search' }).closest('[data-slot="header-tools"]')).not.toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open conversations' }));
    expect(props.onOpenDrawer).toHaveBeenCalledWith(screen.getByRole('button', { name: 'Open conversations' }));
    const message = (await screen.findByText('start a thread here')).closest('article')!;
    await user.click(within(message as HTMLElement).getByRole('button', { name: 'Reply in thread' }));
    expect(props.onReplyInThread).toHaveBeenCalledWith(fake.messages[0]);
    expect(screen.getByRole('textbox', { name: 'Message #general' })).toBeTruthy();
  });

  it('a DM is titled with the agent’s name; a thread opened as a conversation links back to its parent and offers no thread', async () => {
    const fake = fakeClientApi({ 'agents.list': async () => [demoAgent({ id: 'claude', name: 'Claude' })] });
    const dm = view();
    const { unmount } = renderInApp(<ConversationView {...dm.props} target="dm:@claude" />, fake);
    await vi.waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Claude'));
    expect(screen.getByText('Direct message')).toBeTruthy();
    unmount();

    fake.messages.push(messageFixture({ seq: 1, target: '#general:ab12', content: 'a reply' }));
    const thread = view();
    renderInApp(<ConversationView {...thread.props} target="#general:ab12" />, fake);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Thread in #general');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back to #general' }));
    expect(thread.props.onOpenConversation).toHaveBeenCalledWith('#general');
    await screen.findByText('a reply');
    expect(screen.queryByRole('button', { name: 'Reply in thread' })).toBeNull();
  });

  it('shows the reply count of a thread under its root message (threads of the conversation on view)', async () => {
    const root = messageFixture({ seq: 1, content: 'root' });
    const fake = fakeClientApi({
      'threads.list': async ({ parent }) =>
        parent === '#general'
          ? [{ target: '#general:ab12', parent: '#general', root, replyCount: 3, lastReplyAt: null }]
          : [],
    });
    fake.messages.push(root);
    renderInApp(view().ui, fake);
    expect(await screen.findByText('3 replies')).toBeTruthy();
    expect(fake.requestsOf('threads.list')).toContainEqual({ parent: '#general' });
  });
});
