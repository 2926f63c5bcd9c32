import { describe, expect, it } from 'vitest';
import { StreamJsonParser } from '../../../../../../main/daemon/runtime/claude-code/stream-json-parser.js';

describe('StreamJsonParser', () => {
  it('joins lines split across chunks and reports non-JSON lines instead of throwing', () => {
    const p = new StreamJsonParser();
    expect(p.push('{"type":"sys')).toEqual([]);
    expect(p.push('tem"}\nNo conversation found\n[1]\n{"a"')).toEqual([
      { ok: true, value: { type: 'system' } },
      { ok: false, line: 'No conversation found' },
      { ok: false, line: '[1]' },
    ]);
    expect(p.end()).toEqual([{ ok: false, line: '{"a"' }]);
  });
});
