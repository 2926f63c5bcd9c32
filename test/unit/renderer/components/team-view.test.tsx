// @vitest-environment happy-dom
/** issue 25: the Team view — who needs you first, what each agent is doing, live updates, each row's way to act. */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TeamAgent } from '../../../../shared/api/contract.js';
import { TeamView, type TeamViewProps } from '../../../../renderer/src/components/team-view.js';
import { TeamStore } from '../../../../renderer/src/state/team-store.js';
import { agentOf } from '../../../fixtures/contract-values.js';

afterEach(cleanup);

const entry = (over: Partial<TeamAgent> & Pick<TeamAgent, 'agentId' | 'state'>): TeamAgent => ({
  name: over.agentId[0]!.toUpperCase() + over.agentId.slice(1),
  runtime: 'claude-code',
  target: null,
  title: null,
  since: null,
  wakeToken: null,
  approvalId: null,
  reason: null,
  ready: true,
  ...over,
});

function setup(entries: TeamAgent[], over: Partial<TeamViewProps> = {}) {
  const team = new TeamStore();
  team.replace(entries);
  const props: TeamViewProps = {
    team,
    agents: [
      agentOf({ id: 'claude', name: 'Claude' }),
      agentOf({ id: 'codex', name: 'Codex', runtime: 'codex' }),
      agentOf({ id: 'opencode', name: 'OpenCode', runtime: 'opencode', readiness: undefined }),
    ],
    language: 'en',
    onOpenConversation: vi.fn(),
    onOpenAgent: vi.fn(),
    onMessage: vi.fn(),
    ...over,
  };
  render(<TeamView {...props} />);
  return { team, props };
}
const row = (id: string) => document.querySelector(`[data-team-agent="${id}"]`) as HTMLElement;
const order = () => [...document.querySelectorAll('[data-team-agent]')].map((e) => e.getAttribute('data-team-agent'));

describe('TeamView', () => {
  it('lists who needs you first, then who works (the conversation, for how long), then the idle', () => {
    const since = new Date(Date.now() - 75_000).toISOString();
    setup([
      entry({ agentId: 'opencode', runtime: 'opencode', state: 'idle' }),
      entry({ agentId: 'claude', state: 'working', target: '#general', title: '#general', since, wakeToken: 'wk_1' }),
      entry({
        agentId: 'codex',
        runtime: 'codex',
        state: 'waiting_approval',
        target: '#build',
        title: '#build',
        since,
      }),
    ]);
    expect(screen.getByRole('heading', { level: 1, name: 'Team' })).toBeTruthy();
    expect(order()).toEqual(['codex', 'claude', 'opencode']);
    const needs = screen.getByRole('region', { name: /Needs you/ });
    expect(within(needs).getByText('Waiting for your approval in #build')).toBeTruthy();
    expect(row('claude').querySelector('.team-state')?.textContent).toBe('Working on #general');
    expect(row('claude').querySelector('.team-elapsed')?.textContent).toMatch(/for 1m 1[5-9]s/);
    expect(row('claude').querySelector('.team-elapsed')?.getAttribute('aria-hidden')).toBe('true');
    expect(row('opencode').querySelector('.team-state')?.textContent).toBe('Idle');
  });

  it('links each row to where to act: the conversation, the agent to fix or sign in, a direct message', async () => {
    const { props } = setup([
      entry({
        agentId: 'claude',
        state: 'working',
        target: '#general',
        title: '#general',
        since: new Date().toISOString(),
      }),
      entry({ agentId: 'codex', runtime: 'codex', state: 'needs_sign_in', ready: false, reason: 'auth_required' }),
      entry({ agentId: 'opencode', runtime: 'opencode', state: 'failed', ready: false, reason: 'cli_missing' }),
      entry({ agentId: 'demo', runtime: 'demo', state: 'idle' }),
    ]);
    const user = userEvent.setup();
    await user.click(within(row('claude')).getByRole('button', { name: 'Open #general' }));
    expect(props.onOpenConversation).toHaveBeenCalledWith('#general');
    await user.click(within(row('codex')).getByRole('button', { name: 'Sign in' }));
    expect(props.onOpenAgent).toHaveBeenCalledWith('codex');
    // issue 40 item 6: not signed in is available, neutrally — never among those who need the operator.
    expect(screen.getByRole('region', { name: /Available — sign in to use/ }).contains(row('codex'))).toBe(true);
    expect(screen.getByRole('region', { name: /Needs you/ }).contains(row('codex'))).toBe(false);
    expect(row('codex').querySelector('.team-icon')?.textContent).toBe('◇');
    // A failure says what happened and how to fix it, in plain words (never a bare reason token).
    expect(row('opencode').querySelector('.team-note')?.textContent).not.toContain('cli_missing');
    expect(row('opencode').querySelector('.team-note')?.textContent).toMatch(/OpenCode/);
    await user.click(within(row('opencode')).getByRole('button', { name: 'See what to do' }));
    expect(props.onOpenAgent).toHaveBeenCalledWith('opencode');
    await user.click(within(row('demo')).getByRole('button', { name: 'Message' }));
    expect(props.onMessage).toHaveBeenCalledWith('demo');
  });

  it('updates live from team.updated: an agent that asks for approval moves to the top', () => {
    const { team } = setup([
      entry({ agentId: 'claude', state: 'idle' }),
      entry({ agentId: 'codex', runtime: 'codex', state: 'idle' }),
    ]);
    expect(order()).toEqual(['claude', 'codex']);
    expect(screen.queryByRole('region', { name: /Needs you/ })).toBeNull();
    act(() =>
      team.upsert(entry({ agentId: 'codex', runtime: 'codex', state: 'waiting_approval', target: '#general' })),
    );
    expect(order()).toEqual(['codex', 'claude']);
    expect(row('codex').getAttribute('data-team-state')).toBe('waiting_approval');
    expect(within(row('codex')).getByRole('button', { name: 'Review the request' })).toBeTruthy();
  });

  it('speaks 简体中文, and says when there are no agents', () => {
    setup([entry({ agentId: 'claude', state: 'working', target: '#general', title: '#general' })], {
      language: 'zh-CN',
    });
    expect(screen.getByRole('heading', { level: 1, name: '团队' })).toBeTruthy();
    expect(row('claude').querySelector('.team-state')?.textContent).toBe('正在处理 #general');
    cleanup();
    setup([]);
    expect(screen.getByText('No agents yet. Add one in agentteam.json.')).toBeTruthy();
  });
});
