// @vitest-environment happy-dom
/**
 * issue 25 in the shell: the Team entry of the nav (keyboard reachable, a badge of who needs you)
 * opens the Team view, fed by `team.board` and `team.updated`; a row opens where to act; a paused
 * chain's Continue in the status area is the operator's `chains.continue`.
 */
import { act, cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Chain, TeamAgent } from '../../../shared/api/contract.js';
import { Shell } from '../../../renderer/src/app.js';
import { conversationFixture, fakeClientApi, type FakeHandlers } from '../../fixtures/fake-client-api.js';
import { layOutMessageLists, renderInApp } from '../../fixtures/render-in-app.js';

beforeAll(layOutMessageLists);
afterEach(cleanup);

const entry = (over: Partial<TeamAgent> & Pick<TeamAgent, 'agentId' | 'state'>): TeamAgent => ({
  name: over.agentId,
  runtime: 'demo',
  target: null,
  title: null,
  since: null,
  wakeToken: null,
  approvalId: null,
  reason: null,
  ready: true,
  ...over,
});
const chain = (over: Partial<Chain> = {}): Chain => ({
  chainId: 'msg_1',
  target: '#general',
  status: 'paused',
  hops: 6,
  budget: 6,
  continues: 0,
  heldMessageId: 'msg_9',
  heldFor: [{ agentId: 'demo', name: 'Demo' }],
  startedAt: '2026-03-02T09:00:00.000Z',
  pausedAt: '2026-03-02T09:04:00.000Z',
  updatedAt: '2026-03-02T09:04:00.000Z',
  ...over,
});

async function shell(overrides: Partial<FakeHandlers> = {}) {
  const fake = fakeClientApi(overrides);
  fake.conversations.push(conversationFixture('#dev'));
  renderInApp(<Shell canChooseFolder={false} />, fake);
  const nav = screen.getByRole('navigation', { name: 'Conversations' });
  await within(nav).findByRole('button', { name: /#dev/ });
  return { fake, user: userEvent.setup(), nav };
}

describe('the Team view in the shell', () => {
  it('is a nav entry with a badge of who needs you, reachable by keyboard, and updates live', async () => {
    const { fake, user, nav } = await shell({
      'team.board': async () => [
        entry({ agentId: 'demo', state: 'idle' }),
        entry({ agentId: 'helper', state: 'working', target: '#dev', title: '#dev', since: new Date().toISOString() }),
      ],
    });
    const team = within(nav).getByRole('button', { name: /^Team/ });
    expect(team.querySelector('[data-needs-you]')).toBeNull();
    team.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Team');
    expect(team.getAttribute('aria-current')).toBe('page');
    act(() =>
      fake.emit({
        name: 'team.updated',
        payload: entry({ agentId: 'demo', state: 'waiting_approval', target: '#general' }),
      }),
    );
    expect(document.querySelector('[data-team-agent]')?.getAttribute('data-team-agent')).toBe('demo');
    expect(team.querySelector('[data-needs-you]')?.textContent).toMatch(/^1/);
    // The working row opens its conversation.
    await user.click(screen.getByRole('button', { name: 'Open #dev' }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('#dev');
  });

  it('offers Continue on a paused chain of the conversation; it calls chains.continue, and the status goes', async () => {
    const { fake, user } = await shell({
      'chains.list': async () => [chain()],
      'chains.continue': async ({ chainId }) =>
        chain({
          chainId: chainId ?? '',
          status: 'open',
          budget: 12,
          continues: 1,
          updatedAt: new Date().toISOString(),
        }),
    });
    const status = screen.getByRole('status', { name: 'Agent status' });
    const button = await within(status).findByRole('button', { name: /^Continue/ });
    expect(within(status).getByText('Agents paused after 6 hand-offs')).toBeTruthy();
    await user.click(button);
    expect(fake.requestsOf('chains.continue')).toEqual([{ chainId: 'msg_1' }]);
    await vi.waitFor(() => expect(status.querySelector('[data-chain]')).toBeNull());
    expect(fake.requestsOf('chains.list')).toEqual([{ pausedOnly: true }]);
  });
});
