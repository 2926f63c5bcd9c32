// @vitest-environment happy-dom
/** The thread pane (issue 17; issue 23: its pane from the stores): root message, replies, Esc, its own composer. */
import { cleanup, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ThreadPane } from '../../../../renderer/src/components/thread-pane.js';
import { fakeClientApi, messageFixture } from '../../../fixtures/fake-client-api.js';
import { layOutMessageLists, renderInApp } from '../../../fixtures/render-in-app.js';

beforeAll(layOutMessageLists);
afterEach(cleanup);

const THREAD = '#general:ab12';

function threadApi() {
  const root = messageFixture({ seq: 4, content: 'the root message', authorKind: 'agent', authorName: 'Demo' });
  const fake = fakeClientApi({
    'threads.list': async ({ parent }) =>
      parent === '#general' ? [{ target: THREAD, parent: '#general', root, replyCount: 1, lastReplyAt: null }] : [],
  });
  fake.messages.push(messageFixture({ seq: 1, target: THREAD, content: 'the first reply' }));
  return fake;
}

describe('ThreadPane', () => {
  it('shows the root message, the replies, its own status area, and takes focus on its close button', async () => {
    renderInApp(<ThreadPane target={THREAD} covered={false} onOpenWake={vi.fn()} onClose={vi.fn()} />, threadApi());
    const pane = screen.getByRole('complementary', { name: /Thread/ });
    expect(pane.getAttribute('data-thread')).toBe(THREAD);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Thread · #general');
    expect(await screen.findByText('the root message')).toBeTruthy();
    expect(await screen.findByText('the first reply')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Thread status' }).getAttribute('data-target')).toBe(THREAD);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close thread' }));
  });

  it('a reply is sent to the thread, never its parent', async () => {
    const fake = threadApi();
    renderInApp(<ThreadPane target={THREAD} covered={false} onOpenWake={vi.fn()} onClose={vi.fn()} />, fake);
    await userEvent.setup().type(screen.getByRole('textbox', { name: 'Reply in thread' }), 'me too{Enter}');
    await vi.waitFor(() => expect(fake.requestsOf('messages.send')).toEqual([{ target: THREAD, content: 'me too' }]));
  });

  it('Esc closes it, unless an inspector is open above it', async () => {
    const onClose = vi.fn();
    const { rerender } = renderInApp(
      <ThreadPane target={THREAD} covered={true} onOpenWake={vi.fn()} onClose={onClose} />,
      threadApi(),
    );
    const user = userEvent.setup();
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    rerender(<ThreadPane target={THREAD} covered={false} onOpenWake={vi.fn()} onClose={onClose} />);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
