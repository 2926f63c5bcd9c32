/** issue 40 item 9: an approval's line counts: lines that stay are context, never counted. */
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../../shared/line-diff.js';

describe('lineDiff', () => {
  it('a write that changes nothing counts nothing', () => {
    expect(lineDiff(['a', 'b'], ['a', 'b'])).toEqual({ added: 0, removed: 0, lines: [' a', ' b'] });
  });

  it('counts only what changed, removals before additions', () => {
    expect(lineDiff(['a', 'b', 'c'], ['a', 'x', 'c'])).toEqual({
      added: 1,
      removed: 1,
      lines: [' a', '-b', '+x', ' c'],
    });
    expect(lineDiff([], ['a', 'b'])).toEqual({ added: 2, removed: 0, lines: ['+a', '+b'] });
    expect(lineDiff(['a'], ['a', 'b'])).toEqual({ added: 1, removed: 0, lines: [' a', '+b'] });
    expect(lineDiff(['a', 'b', 'c', 'd'], ['b', 'a', 'd'])).toMatchObject({ added: 1, removed: 2 });
  });

  it('a very large change is shown replaced whole, still counted truthfully for what differs', () => {
    const before = Array.from({ length: 2000 }, (_, i) => `old ${i}`);
    const after = Array.from({ length: 2000 }, (_, i) => `new ${i}`);
    expect(lineDiff(['same', ...before], ['same', ...after])).toMatchObject({ added: 2000, removed: 2000 });
  });
});
