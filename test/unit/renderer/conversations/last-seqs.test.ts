import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../../shared/api/contract.js';
import { applyLastSeqs } from '../../../../renderer/src/conversations/last-seqs.js';

const conv = (target: string, lastSeq: number): Conversation =>
  ({ target, kind: 'channel', parent: null, lastSeq }) as unknown as Conversation;

describe('applyLastSeqs (issue 19: a frame of message.stored applied at once)', () => {
  it('raises lastSeq where a bump is higher, keeping every other conversation object', () => {
    const list = [conv('#a', 3), conv('#b', 5), conv('#c', 1)];
    const next = applyLastSeqs(
      list,
      new Map([
        ['#a', 7],
        ['#b', 4],
      ]),
    );
    expect(next.map((c) => c.lastSeq)).toEqual([7, 5, 1]);
    expect(next[1]).toBe(list[1]);
    expect(next[2]).toBe(list[2]);
  });

  it('returns the same list when nothing rises (no re-render)', () => {
    const list = [conv('#a', 3)];
    expect(applyLastSeqs(list, new Map([['#a', 3]]))).toBe(list);
    expect(applyLastSeqs(list, new Map())).toBe(list);
  });

  it('names the bumped targets the list does not hold (the caller refetches the list)', () => {
    const unknown: string[] = [];
    applyLastSeqs(
      [conv('#a', 1)],
      new Map([
        ['#a', 2],
        ['dm:@demo', 1],
      ]),
      (t) => unknown.push(t),
    );
    expect(unknown).toEqual(['dm:@demo']);
  });
});
