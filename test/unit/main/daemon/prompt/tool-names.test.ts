import { describe, expect, it } from 'vitest';
import {
  crossTargetInstruction,
  mcpNamespace,
  mcpToolName,
  sendInstruction,
  sendSurfaceFor,
  sendToolRef,
} from '../../../../../main/daemon/prompt/tool-names.js';
import { targetKey } from '../../../../../shared/target.js';

describe('tool names per runtime kind (research/runtimes.md §2)', () => {
  it('match the names each runtime presents on the wire', () => {
    expect(mcpToolName('claude-code', 'message_send')).toBe('mcp__agentteam__message_send');
    expect(mcpToolName('claude-code', 'reaction')).toBe('mcp__agentteam__reaction');
    expect([mcpNamespace('codex'), mcpToolName('codex', 'message_send')]).toEqual(['mcp__agentteam', 'message_send']);
    expect(mcpToolName('opencode', 'message_send')).toBe('agentteam_message_send');
    expect(mcpToolName('demo', 'message_send')).toBe('message_send');
    for (const r of ['claude-code', 'opencode', 'demo'] as const) expect(mcpNamespace(r)).toBeNull();
  });

  it('render one reference per surface and language', () => {
    expect(sendToolRef(sendSurfaceFor('codex'), 'en')).toBe('`message_send` (tool namespace `mcp__agentteam`)');
    expect(sendToolRef(sendSurfaceFor('opencode', 'cli'), 'en')).toBe('`agentteam send`');
    expect(sendInstruction(sendSurfaceFor('claude-code', 'cli'), 'en', targetKey('#general:ab12'))).toBe(
      'run `agentteam send --target "#general:ab12" --text "<reply>"` with the reply as --text',
    );
    expect(crossTargetInstruction(sendSurfaceFor('claude-code'), 'zh-CN')).toContain('allow_cross_target: true');
  });
});
