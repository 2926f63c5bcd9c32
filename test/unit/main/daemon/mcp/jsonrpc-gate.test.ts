/** issue 41: the MCP body gate's depth scan (before JSON.parse) and its classification. */
import { describe, expect, it } from 'vitest';
import { batchesAllowed, gateBody, nestsDeeperThan } from '../../../../../main/daemon/mcp/jsonrpc-gate.js';

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, never brackets inside strings (escaped quotes included)', () => {
    expect(nestsDeeperThan('[[[]]]', 3)).toBe(false);
    expect(nestsDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":{"c":1}}}', 3)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ content: '['.repeat(500) + '{'.repeat(500) }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ content: 'say \\"[[[[\\" and "{{{{"' }), 1)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\",${'['.repeat(5)}`, 4)).toBe(true);
  });
});

describe('gateBody', () => {
  it('a message_send whose content is full of brackets is a valid request', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'message_send', arguments: { target: '#general', content: '[{'.repeat(2000) } },
    });
    expect(gateBody(body, '2025-06-18').ok).toBe(true);
  });

  it('batches belong to 2025-03-26 only', () => {
    expect(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', undefined].map(batchesAllowed)).toEqual([
      false,
      true,
      false,
      false,
      false,
    ]);
  });
});
