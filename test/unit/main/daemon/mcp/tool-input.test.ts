/** issue 30: the compiled check of message_send's arguments accepts exactly what its zod schema accepts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileMessageSendCheck, MessageSendInput } from '../../../../../main/daemon/mcp/tool-input.js';

const compiled = compileMessageSendCheck(z.toJSONSchema(MessageSendInput, { io: 'input' }));

describe('message_send arguments: compiled check vs zod', () => {
  it('agrees on hand-picked cases, valid and not', () => {
    const cases: unknown[] = [
      { target: '#general', content: 'hi' },
      { target: '#general', content: '', allow_cross_target: true },
      { target: 'dm:@op', content: 'x', allow_cross_target: false, extra: 1 },
      { target: '#general' },
      { content: 'hi' },
      { target: 1, content: 'hi' },
      { target: '#g', content: 'hi', allow_cross_target: 'yes' },
      { target: '#g', content: null },
      {},
      [],
      null,
      'text',
      42,
    ];
    for (const c of cases) expect([c, compiled(c)]).toEqual([c, MessageSendInput.safeParse(c).success]);
    expect(compiled({ target: '#general', content: 'hi' })).toBe(true);
    expect(compiled({ target: '#general' })).toBe(false);
  });

  it('agrees on generated JSON arguments', () => {
    const value = fc.oneof(fc.string(), fc.boolean(), fc.integer(), fc.constant(null), fc.array(fc.string()));
    const args = fc.record(
      {
        target: value,
        content: value,
        allow_cross_target: value,
        other: value,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(args, fc.jsonValue()), (x) => {
        expect(compiled(x)).toBe(MessageSendInput.safeParse(x).success);
      }),
      { numRuns: 2000 },
    );
  });
});
