// @vitest-environment happy-dom
/**
 * issue 25 in the conversation: a message row names the agents an agent addressed, a chip says
 * who asked, the paused chain's status with Continue, and the inspector's chain (who woke whom).
 */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Chain } from '../../../../shared/api/contract.js';
import { MessageRowView } from '../../../../renderer/src/components/message-row.js';
import { StatusArea, type StatusAreaProps } from '../../../../renderer/src/components/status-area.js';
import { ChainStore } from '../../../../renderer/src/state/chain-store.js';
import { ChainView } from '../../../../renderer/src/status/chain-view.js';
import { WakeBook } from '../../../../renderer/src/status/wake-store.js';
import { messageOf, wakeOf } from '../../../fixtures/contract-values.js';

afterEach(cleanup);

const paused = (over: Partial<Chain> = {}): Chain => ({
  chainId: 'm1',
  target: '#general',
  status: 'paused',
  hops: 6,
  budget: 6,
  continues: 0,
  heldMessageId: 'm9',
  heldFor: [{ agentId: 'codex', name: 'Codex' }],
  startedAt: '2026-03-02T09:00:00.000Z',
  pausedAt: '2026-03-02T09:04:00.000Z',
  updatedAt: '2026-03-02T09:04:00.000Z',
  ...over,
});

function status(over: Partial<StatusAreaProps> = {}) {
  const props: StatusAreaProps = {
    target: '#general',
    wakes: new WakeBook(),
    alerts: [],
    language: 'en',
    onOpenWake: vi.fn(),
    onDismissAlert: vi.fn(),
    dismissed: new Set(),
    ...over,
  };
  render(<StatusArea {...props} />);
  return props;
}

describe('a message an agent addressed to agents', () => {
  const row = (over: Parameters<typeof messageOf>[0], language: 'en' | 'zh-CN' = 'en') =>
    render(
      <MessageRowView
        message={messageOf(over)}
        grouped={false}
        language={language}
        agentIds={new Set(['claude', 'codex'])}
        thread={undefined}
        active={false}
        copied={false}
        onActivate={vi.fn()}
        onCopy={vi.fn()}
      />,
    );

  it('reads "Claude → @codex", and says so to a screen reader (en and 简体中文)', () => {
    row({
      authorKind: 'agent',
      authorId: 'claude',
      authorName: 'Claude',
      content: '@codex please review',
      addressed: [{ agentId: 'codex', name: 'Codex' }],
    });
    const head = document.querySelector('.message-head') as HTMLElement;
    expect(head.querySelector('.message-author')?.textContent).toBe('Claude');
    expect(head.querySelector('.message-addressed [aria-hidden="true"]')?.textContent).toBe('→ @codex');
    expect(head.querySelector('.message-addressed .visually-hidden')?.textContent).toBe('addressed to @codex');
    cleanup();
    row({ authorKind: 'agent', authorName: 'Claude', addressed: [{ agentId: 'codex', name: 'Codex' }] }, 'zh-CN');
    expect(document.querySelector('.message-addressed .visually-hidden')?.textContent).toBe('发给 @codex');
  });

  it('adds nothing to an operator message or an agent message that addressed no one', () => {
    row({ authorKind: 'operator', content: '@codex hi', addressed: [{ agentId: 'codex', name: 'Codex' }] });
    expect(document.querySelector('.message-addressed')).toBeNull();
    cleanup();
    row({ authorKind: 'agent', authorName: 'Claude', addressed: [] });
    expect(document.querySelector('.message-addressed')).toBeNull();
  });
});

describe('the status area of a chain', () => {
  it('says who asked an agent woken by another: "Codex · Working · asked by Claude"', () => {
    const wakes = new WakeBook();
    wakes.applyAll([
      wakeOf({ wakeToken: 'lead', chainId: 'm1', cause: 'operator' }),
      wakeOf({
        wakeToken: 'asked',
        agentId: 'codex',
        agentName: 'Codex',
        chainId: 'm1',
        cause: 'agent_mention',
        askedById: 'claude',
        askedByName: 'Claude',
        createdAt: '2026-03-02T09:05:10.000Z',
      }),
    ]);
    status({ wakes });
    const asked = document.querySelector('[data-wake="asked"] .chip-main') as HTMLElement;
    expect(asked.querySelector('.chip-agent')?.textContent).toBe('Codex');
    expect(asked.querySelector('.chip-text')?.textContent).toBe('Working');
    expect(asked.querySelector('.chip-asked-by')?.textContent).toBe('asked by Claude');
    expect(document.querySelector('[data-wake="lead"] .chip-asked-by')).toBeNull();
  });

  it('shows a paused chain with a Continue that calls the operator API once, then gives way to the open chain', async () => {
    const chains = new ChainStore();
    chains.apply(paused());
    let resolve: (v: string | null) => void = () => undefined;
    const onContinueChain = vi.fn(() => new Promise<string | null>((r) => (resolve = r)));
    status({ chains, onContinueChain });
    const chip = document.querySelector('[data-chain="m1"]') as HTMLElement;
    expect(chip.getAttribute('data-chain-status')).toBe('paused');
    expect(chip.querySelector('.chip-text')?.textContent).toBe('Agents paused after 6 hand-offs');
    const button = within(chip).getByRole('button', { name: 'Continue: let the agents hand off 6 more times' });
    expect(button.textContent).toBe('Continue');
    await userEvent.setup().click(button);
    expect(onContinueChain).toHaveBeenCalledWith('m1');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      chains.apply(paused({ status: 'open', budget: 12, continues: 1, updatedAt: '2026-03-02T09:05:00.000Z' }));
      resolve(null);
    });
    expect(document.querySelector('[data-chain]')).toBeNull();
  });

  it('shows the daemon’s refusal of a Continue beside it, and the button works again (简体中文)', async () => {
    const chains = new ChainStore();
    chains.apply(paused({ hops: 12, budget: 12, continues: 1 }));
    status({ chains, language: 'zh-CN', onContinueChain: vi.fn(async () => 'The chain "m1" is not paused.') });
    const chip = document.querySelector('[data-chain="m1"]') as HTMLElement;
    expect(chip.querySelector('.chip-text')?.textContent).toBe('智能体已在 12 次交接后暂停');
    const button = within(chip).getByRole('button', { name: '继续：允许智能体再交接 6 次' });
    await userEvent.setup().click(button);
    expect(within(chip).getByRole('alert').textContent).toBe('无法继续：The chain "m1" is not paused.');
    expect((button as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('the chain in the inspector', () => {
  const chain = [
    wakeOf({ wakeToken: 'w1', chainId: 'm1', cause: 'operator', status: 'reply_sent', hop: 0, hopBudget: 6 }),
    wakeOf({
      wakeToken: 'w2',
      agentId: 'codex',
      agentName: 'Codex',
      chainId: 'm1',
      cause: 'agent_mention',
      askedById: 'claude',
      askedByName: 'Claude',
      status: 'reply_sent',
      hop: 1,
      hopBudget: 6,
    }),
    wakeOf({
      wakeToken: 'w3',
      chainId: 'm1',
      cause: 'hand_back',
      askedById: 'codex',
      askedByName: 'Codex',
      status: 'delivered',
      hop: 2,
      hopBudget: 6,
    }),
  ];

  it('lists who woke whom with each wake’s status; the other wakes open in the inspector', async () => {
    const onOpenWake = vi.fn();
    render(<ChainView wakes={chain} current="w2" paused={false} language="en" onOpenWake={onOpenWake} />);
    const section = screen.getByRole('region', { name: 'Chain' });
    expect(section.querySelector('.chain-hops')?.textContent).toBe('2 of 6 hand-offs');
    const steps = [...section.querySelectorAll('li')].map((li) => [
      li.querySelector('.chain-step-who')?.textContent,
      li.querySelector('.chain-step-status')?.textContent,
      li.getAttribute('data-status'),
    ]);
    expect(steps).toEqual([
      ['You → Claude', 'Replied', 'reply_sent'],
      ['Claude → Codex', 'Replied', 'reply_sent'],
      ['Codex → Claude (hand-back)', 'Working', 'delivered'],
    ]);
    const current = section.querySelector('[data-chain-wake="w2"]') as HTMLElement;
    expect(current.getAttribute('aria-current')).toBe('step');
    expect(within(current).queryByRole('button')).toBeNull();
    await userEvent
      .setup()
      .click(within(section.querySelector('[data-chain-wake="w3"]') as HTMLElement).getByRole('button'));
    expect(onOpenWake).toHaveBeenCalledWith('w3');
  });

  it('says a chain is paused at its budget, and shows nothing for a wake alone in its chain', () => {
    render(<ChainView wakes={chain} current="w3" paused language="en" />);
    expect(document.querySelector('.chain-paused-note')?.textContent).toContain('Paused — waiting for your Continue');
    cleanup();
    render(<ChainView wakes={chain.slice(0, 1)} current="w1" paused={false} language="en" />);
    expect(document.querySelector('.chain-view')).toBeNull();
  });
});
