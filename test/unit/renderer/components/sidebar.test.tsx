// @vitest-environment happy-dom
/** The sidebar: channels, DMs and their threads, agents with state, settings; a new channel by name. */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Agent, Conversation } from '../../../../shared/api/contract.js';
import { Sidebar, type SidebarProps } from '../../../../renderer/src/components/sidebar.js';
import { PAGES, type View } from '../../../../renderer/src/views/view-registry.js';
import { copy } from '../../../../renderer/src/i18n/copy.js';
import { WakeBook } from '../../../../renderer/src/status/wake-store.js';
import { agentOf, conversationOf, wakeOf } from '../../../fixtures/contract-values.js';

afterEach(cleanup);

const conversations: Conversation[] = [
  conversationOf('#general'),
  conversationOf('#build'),
  conversationOf('#general:ab12cd', { parent: '#general' }),
  conversationOf('dm:@claude'),
];
const agents: Agent[] = [agentOf({ id: 'claude', name: 'Claude', readiness: readiness('ready') })];

function readiness(state: 'ready' | 'needs_sign_in'): NonNullable<Agent['readiness']> {
  return {
    state,
    ready: state === 'ready',
    reason: null,
    cliVersion: null,
    detail: null,
    restart: null,
    checkedAt: null,
  };
}

function setup(over: Partial<SidebarProps> = {}) {
  const props: SidebarProps = {
    conversations,
    agents,
    view: { kind: 'conversation', target: '#general' },
    language: 'en',
    onSelect: vi.fn<(view: View) => void>(),
    unread: () => 0,
    threadLabels: new Map([['#general:ab12cd', 'Fix the build']]),
    drawerOpen: false,
    onCreateChannel: vi.fn(async () => null),
    ...over,
  };
  render(<Sidebar {...props} />);
  return props;
}
const link = (target: string) => document.querySelector(`button[data-target="${target}"]`) as HTMLButtonElement;

describe('Sidebar', () => {
  it('lists channels (threads under their parent) and direct messages by their titles', () => {
    setup();
    const channels = within(screen.getByRole('list', { name: 'Channels' }))
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(channels).toEqual(['#build', '#general', '↳ Fix the build']);
    expect(within(screen.getByRole('list', { name: 'Direct' })).getByRole('button').textContent).toBe('Claude');
    expect(link('#general').getAttribute('aria-current')).toBe('page');
    expect(link('#build').getAttribute('aria-current')).toBeNull();
  });

  it('a thread without a label is called "Thread"', () => {
    setup({ threadLabels: new Map() });
    expect(link('#general:ab12cd').textContent).toBe('↳ Thread');
  });

  it('shows unread counts with words for assistive technology (en and 简体中文)', () => {
    setup({ unread: (c) => (c.target === '#build' ? 3 : 0) });
    expect(link('#build').querySelector('.unread-badge')?.textContent).toBe('3 3 unread');
    expect(link('#general').querySelector('.unread-badge')).toBeNull();
    cleanup();
    setup({ unread: (c) => (c.target === '#build' ? 3 : 0), language: 'zh-CN' });
    expect(link('#build').querySelector('.visually-hidden')?.textContent).toBe(' 3 条未读');
    expect(screen.getByRole('navigation', { name: '会话' })).toBeTruthy();
  });

  it('calls back with the view chosen: a conversation, the agents, one agent, settings', async () => {
    const { onSelect } = setup();
    await userEvent.click(link('dm:@claude'));
    await userEvent.click(screen.getByRole('button', { name: 'Agents' }));
    await userEvent.click(document.querySelector('li[data-agent="claude"] button') as HTMLElement);
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(vi.mocked(onSelect).mock.calls).toEqual([
      [{ kind: 'conversation', target: 'dm:@claude' }],
      [{ kind: 'agents' }],
      [{ kind: 'agent', agentId: 'claude' }],
      [{ kind: 'settings' }],
    ]);
  });

  it('issue 39: lists the pages of the view registry in its order, each with its badge, each opening its view', async () => {
    const { onSelect } = setup({ badges: { team: 2 }, view: { kind: 'usage' } });
    const nav = screen.getByRole('navigation');
    const pages = PAGES.map((p) => within(nav).getByRole('button', { name: new RegExp(`^${copy('en', p.label)}`) }));
    expect(pages.map((b) => b.textContent)).toEqual(['Team2 2 need you', 'Usage', 'Agents', 'Settings']);
    // Headings before the agent rows, Settings at the foot; the page on view is the current one.
    expect(pages.slice(0, 3).every((b) => b.parentElement?.tagName === 'H2')).toBe(true);
    expect(pages[3]?.parentElement?.tagName).toBe('NAV');
    expect(pages.map((b) => b.getAttribute('aria-current'))).toEqual([null, 'page', null, null]);
    expect(pages[0]?.querySelector('[data-needs-you="2"]')).not.toBeNull();
    expect(pages[0]?.classList.contains('has-unread')).toBe(true);
    for (const b of pages) await userEvent.click(b);
    expect(vi.mocked(onSelect).mock.calls).toEqual(PAGES.map((p) => [{ kind: p.kind }]));
  });

  it('creates a channel from a typed name (with or without "#"), closing the field once created', async () => {
    const { onCreateChannel } = setup();
    await userEvent.click(screen.getByRole('button', { name: '+ New channel' }));
    const input = screen.getByRole('textbox', { name: 'Channel name, e.g. #build' });
    expect(document.activeElement).toBe(input);
    await userEvent.type(input, ' release {Enter}');
    expect(onCreateChannel).toHaveBeenCalledExactlyOnceWith('#release');
    expect(await screen.findByRole('button', { name: '+ New channel' })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it("keeps the field open with the daemon's message when the channel is refused", async () => {
    const onCreateChannel = vi.fn(async () => 'target "#Bad!" is not a channel name');
    setup({ onCreateChannel });
    await userEvent.click(screen.getByRole('button', { name: '+ New channel' }));
    await userEvent.type(screen.getByRole('textbox'), '#Bad!{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('target "#Bad!" is not a channel name');
    expect(onCreateChannel).toHaveBeenCalledWith('#Bad!');
    expect(screen.getByRole('textbox')).toBeTruthy();
  });

  it('Escape closes the new-channel field without creating one', async () => {
    const { onCreateChannel } = setup();
    await userEvent.click(screen.getByRole('button', { name: '+ New channel' }));
    await userEvent.type(screen.getByRole('textbox'), 'x{Escape}');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(onCreateChannel).not.toHaveBeenCalled();
  });

  it("shows each agent's runtime, state or readiness, policy and workspace", () => {
    setup({
      agents: [
        agentOf({ id: 'claude', state: 'busy', readiness: readiness('ready'), permissions: 'full', cwd: '/w/app' }),
        agentOf({ id: 'codex', name: 'Codex', runtime: 'codex', readiness: readiness('needs_sign_in') }),
        agentOf({ id: 'demo', name: 'Demo', runtime: 'demo', demo: true, permissions: 'ask' }),
      ],
    });
    const row = (id: string) => document.querySelector(`li[data-agent="${id}"]`) as HTMLElement;
    expect(row('claude').querySelector('.agent-state-text')?.textContent).toBe('busy');
    expect(row('claude').querySelector('.state-dot')?.textContent).toBe('●');
    expect(row('claude').querySelector('[data-permissions="full"]')?.textContent).toBe('⚠ full');
    expect(row('claude').querySelector('.agent-cwd')?.textContent).toBe('/w/app');
    expect(row('codex').querySelector('.agent-runtime')?.textContent).toBe('Codex');
    expect(row('codex').querySelector('.agent-state-text')?.textContent).toBe('Needs sign-in');
    // issue 40 item 6: not signed in is available — neutral, no warning sign.
    expect(row('codex').querySelector('.state-dot')?.textContent).toBe('◇');
    expect(row('codex').querySelector('button')?.getAttribute('title')).toMatch(/codex login/);
    expect(row('demo').querySelector('.agent-runtime')?.textContent).toBe('demo');
    // The demo has no policy or workspace of a person's: its second line names it only.
    expect(row('demo').querySelector('.agent-row-meta')?.textContent).toBe('demo');
  });

  it('renders agent and thread labels as text, never markup', () => {
    setup({
      agents: [agentOf({ name: '<b>Claude</b>' })],
      threadLabels: new Map([['#general:ab12cd', '<script>x()</script>']]),
    });
    expect(document.querySelector('nav b, nav script')).toBeNull();
    expect(link('dm:@claude').textContent).toBe('<b>Claude</b>');
    expect(link('#general:ab12cd').textContent).toBe('↳ <script>x()</script>');
  });
});

describe('Sidebar: a paused agent says so (issue 40 item 8)', () => {
  it('reads "Paused until HH:MM" (local time) while a wake of the agent is paused, Ready again after it goes on', () => {
    const wakes = new WakeBook();
    setup({ wakes });
    const text = () => document.querySelector('[data-agent="claude"] .agent-state-text') as HTMLElement;
    const dot = () => document.querySelector('[data-agent="claude"] .state-dot')?.textContent;
    expect(text().textContent).toBe('Ready');
    expect(dot()).toBe('○');
    const reset = new Date(2026, 11, 5, 14, 5, 0).toISOString();
    act(() => void wakes.apply(wakeOf({ status: 'paused', reason: 'usage_limit', pausedUntil: reset })));
    expect(text().textContent).toBe('Paused until 14:05');
    expect(text().getAttribute('data-paused')).toBe('usage_limit');
    // Its dot is the paused chip's, not the idle ○ beside "Paused until".
    expect(dot()).toBe('⏸');
    act(() => void wakes.apply(wakeOf({ status: 'delivered' })));
    expect(text().textContent).toBe('Ready');
    expect(dot()).toBe('○');
    cleanup();
    const zh = new WakeBook();
    zh.apply(wakeOf({ status: 'paused', reason: 'daily_budget', pausedUntil: reset }));
    setup({ wakes: zh, language: 'zh-CN' });
    expect(text().textContent).toBe('已暂停，直到 14:05');
  });
});
