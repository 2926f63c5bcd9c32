import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../../shared/target.js';

describe('parseTarget (smoke)', () => {
  it('keeps a thread short id', () => {
    const r = parseTarget('#General:AB12cd');
    expect(r.ok && r.key).toBe('#general:ab12cd');
  });
  it('rejects an unknown form with a stable code', () => {
    const r = parseTarget('general');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('target_unknown_form');
  });
});
