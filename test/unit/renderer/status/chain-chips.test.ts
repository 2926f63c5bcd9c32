/** issue 25: chips of agents woken by agents — one round per chain, "asked by" — and the wake book's chain index. */
import { describe, expect, it, vi } from 'vitest';
import { chainStep } from '../../../../renderer/src/status/chain-view.js';
import { latestRound, statusChips } from '../../../../renderer/src/status/wake-chips.js';
import { WakeBook } from '../../../../renderer/src/status/wake-store.js';
import { wakeOf } from '../../../fixtures/contract-values.js';

const at = (min: number, sec = 0) =>
  `2026-03-02T09:${String(min).padStart(2, '0')}:${String(sec).padStart(2, '0')}.000Z`;

describe('chips of a chain', () => {
  it('keeps a hand-back woken long after the asked agent ended in the same round as its chain', () => {
    const wakes = [
      wakeOf({ wakeToken: 'lead', chainId: 'm1', cause: 'operator', status: 'delivered', createdAt: at(0) }),
      wakeOf({
        wakeToken: 'asked',
        agentId: 'codex',
        agentName: 'Codex',
        chainId: 'm1',
        cause: 'agent_mention',
        askedById: 'claude',
        askedByName: 'Claude',
        status: 'reply_sent',
        createdAt: at(1),
        endedAt: at(2),
      }),
    ];
    // The lead's first wake ended; the hand-back comes a minute later, still this chain's round.
    const ended = { ...wakes[0]!, status: 'reply_sent' as const, endedAt: at(1, 30) };
    const handBack = wakeOf({
      wakeToken: 'back',
      chainId: 'm1',
      cause: 'hand_back',
      askedById: 'codex',
      askedByName: 'Codex',
      status: 'delivered',
      createdAt: at(3),
    });
    expect(latestRound([ended, wakes[1]!, handBack]).map((w) => w.wakeToken)).toEqual(['lead', 'asked', 'back']);
    const chips = statusChips([ended, wakes[1]!, handBack], '#general');
    // issue 40 item 7: the hand-back's agent was not asked by Codex: Codex's answer came back to it.
    expect(chips.map((c) => [c.agentName, c.kind, c.askedByName, c.answerFromName])).toEqual([
      ['Codex', 'replied', 'Claude', null],
      ['Claude', 'working', null, 'Codex'],
    ]);
    // Without a chain, the same gap starts a new round (the pre-chain rule stands).
    const unchained = [ended, wakes[1]!, handBack].map((w) => ({ ...w, chainId: null }));
    expect(latestRound(unchained).map((w) => w.wakeToken)).toEqual(['back']);
  });

  it('starts a new round for a new operator message (a fresh chain) after all work ended', () => {
    const first = wakeOf({ wakeToken: 'a', chainId: 'm1', status: 'reply_sent', createdAt: at(0), endedAt: at(1) });
    const second = wakeOf({ wakeToken: 'b', chainId: 'm2', status: 'delivered', createdAt: at(5) });
    expect(latestRound([first, second]).map((w) => w.wakeToken)).toEqual(['b']);
  });

  it('words each step of a chain: the operator, a mention, a hand-back (en and 简体中文)', () => {
    expect(chainStep(wakeOf({ cause: 'operator' }), 'en')).toBe('You → Claude');
    expect(
      chainStep(
        wakeOf({ agentName: 'Codex', cause: 'agent_mention', askedById: 'claude', askedByName: 'Claude' }),
        'en',
      ),
    ).toBe('Claude → Codex');
    expect(chainStep(wakeOf({ cause: 'hand_back', askedById: 'codex', askedByName: 'Codex' }), 'zh-CN')).toBe(
      'Codex → Claude（交回结果）',
    );
  });
});

describe('the wake book by chain', () => {
  it('lists a chain’s wakes oldest first, notifies only that chain, and keeps its snapshot until a wake changes', () => {
    const book = new WakeBook();
    const heard = vi.fn();
    const other = vi.fn();
    book.subscribe('c:m1', heard);
    book.subscribe('c:m2', other);
    book.apply(wakeOf({ wakeToken: 'w2', chainId: 'm1', createdAt: at(2) }));
    book.apply(wakeOf({ wakeToken: 'w1', chainId: 'm1', createdAt: at(1) }));
    book.apply(wakeOf({ wakeToken: 'solo', chainId: null }));
    expect(book.wakesOfChain('m1').map((w) => w.wakeToken)).toEqual(['w1', 'w2']);
    const snap = book.wakesOfChain('m1');
    expect(book.wakesOfChain('m1')).toBe(snap);
    book.apply(wakeOf({ wakeToken: 'w1', chainId: 'm1', createdAt: at(1), status: 'reply_sent', endedAt: at(3) }));
    expect(book.wakesOfChain('m1')).not.toBe(snap);
    expect(book.wakesOfChain('m1')[0]?.status).toBe('reply_sent');
    expect(heard).toHaveBeenCalledTimes(3);
    expect(other).not.toHaveBeenCalled();
    expect(book.wakesOfChain('none')).toEqual([]);
  });
});
