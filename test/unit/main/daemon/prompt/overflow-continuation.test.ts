/**
 * The continuation after an overflow's compaction (issue 38): short, never the task, each exact
 * target once with its wakes' message ids, and the runtime's own send tool as its deliveries name it.
 */
import { describe, expect, it } from 'vitest';
import {
  OVERFLOW_CONTINUATION_MARKER,
  renderOverflowContinuation,
} from '../../../../../main/daemon/prompt/overflow-continuation.js';
import { sendInstruction, sendSurfaceFor } from '../../../../../main/daemon/prompt/tool-names.js';
import { targetKey } from '../../../../../shared/target.js';
import { namingFor } from '../../../../fixtures/prompt-agents.js';

const general = targetKey('#general');
const ops = targetKey('#ops');

describe('renderOverflowContinuation', () => {
  it('one target: the marker, the exact target with its wakes, and the send instruction for that target', () => {
    const text = renderOverflowContinuation(
      [
        { messageId: 'msg_1', targetKey: general },
        { messageId: 'msg_2', targetKey: general },
      ],
      { naming: namingFor('claude-code'), language: 'en' },
    );
    expect(text).toBe(
      [
        `${OVERFLOW_CONTINUATION_MARKER}: your context was compacted after it overflowed. Continue the task you were working on; do not start it over.`,
        '- exact target "#general" (wake message "msg_1", "msg_2")',
        `When you have the result for participants, ${sendInstruction(sendSurfaceFor(namingFor('claude-code')), 'en', general)}.`,
        'Plain/final text is not posted to the conversation.',
      ].join('\n'),
    );
  });

  it("names each runtime's own tool: an ACP preset's, and the CLI agent-tools command", () => {
    const wakes = [{ messageId: 'msg_1', targetKey: general }];
    const qwen = renderOverflowContinuation(wakes, { naming: namingFor('acp', 'qwen'), language: 'en' });
    expect(qwen).toContain(sendSurfaceFor(namingFor('acp', 'qwen'), 'mcp').sendTool);
    const cli = renderOverflowContinuation(wakes, { naming: namingFor('codex'), language: 'zh-CN', surface: 'cli' });
    expect(cli).toContain('agentteam agent send');
    expect(cli).toContain('精确 target "#general"');
  });

  it('several targets: each once, with the generic instruction; a wake without a target is left out', () => {
    const text = renderOverflowContinuation(
      [
        { messageId: 'msg_1', targetKey: general },
        { messageId: 'msg_2', targetKey: null },
        { messageId: 'msg_3', targetKey: ops },
      ],
      { naming: namingFor('codex'), language: 'en' },
    );
    expect(text?.split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- exact target "#general" (wake message "msg_1")',
      '- exact target "#ops" (wake message "msg_3")',
    ]);
    expect(text).toContain(sendInstruction(sendSurfaceFor(namingFor('codex')), 'en', null));
    expect(text).not.toContain('msg_2');
  });

  it('no wake with a target: nothing to continue (null); a malformed id is a bug (throws)', () => {
    expect(
      renderOverflowContinuation([{ messageId: 'msg_1', targetKey: null }], {
        naming: namingFor('codex'),
        language: 'en',
      }),
    ).toBe(null);
    expect(() =>
      renderOverflowContinuation([{ messageId: 'bad id "x"', targetKey: general }], {
        naming: namingFor('codex'),
        language: 'en',
      }),
    ).toThrow(/not an id/);
  });
});
