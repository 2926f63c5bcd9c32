import { describe, expect, it } from 'vitest';
import { exactTargets } from '../../../../../main/daemon/runtime/prompt-targets.js';

describe('exactTargets', () => {
  it('returns every quoted exact target in order, canonical and without duplicates, skipping invalid ones', () => {
    const check =
      'Final delivery check:\n- exact target "#General:AB12" (wake message "m1")\n- exact target "dm:@ops" (wake "m2")\n- exact target "#general:ab12"\n- exact target "nope"';
    expect(exactTargets(check)).toEqual(['#general:ab12', 'dm:@ops']);
  });

  it('falls back to the first bare target word, else nothing', () => {
    expect(exactTargets('please post in #build or dm:@alice')).toEqual(['#build']);
    expect(exactTargets('no target here, just a # sign')).toEqual([]);
  });
});
