import { describe, expect, it } from 'vitest';
import {
  crossTargetInstruction,
  sendInstruction,
  sendSurfaceFor,
  sendToolRef,
} from '../../../../../main/daemon/prompt/tool-names.js';
import { targetKey } from '../../../../../shared/target.js';
import { namingFor } from '../../../../fixtures/prompt-agents.js';

describe('tool names per runtime kind (research/runtimes.md §2)', () => {
  it('match the names each runtime presents on the wire', () => {
    // issue 39: each runtime's descriptor names the tools (runtime/registry.ts `toolNamingOf`).
    expect(namingFor('claude-code').name('message_send')).toBe('mcp__agentteam__message_send');
    expect(namingFor('claude-code').name('reaction')).toBe('mcp__agentteam__reaction');
    expect([namingFor('codex').namespace, namingFor('codex').name('message_send')]).toEqual([
      'mcp__agentteam',
      'message_send',
    ]);
    expect(namingFor('opencode').name('message_send')).toBe('agentteam_message_send');
    expect(namingFor('demo').name('message_send')).toBe('message_send');
    for (const r of ['claude-code', 'opencode', 'demo'] as const) expect(namingFor(r).namespace).toBeNull();
  });

  it('render one reference per surface and language', () => {
    expect(sendToolRef(sendSurfaceFor(namingFor('codex')), 'en')).toBe(
      '`message_send` (tool namespace `mcp__agentteam`)',
    );
    expect(sendToolRef(sendSurfaceFor(namingFor('opencode'), 'cli'), 'en')).toBe('`agentteam agent send`');
    expect(sendInstruction(sendSurfaceFor(namingFor('claude-code'), 'cli'), 'en', targetKey('#general:ab12'))).toBe(
      "run `agentteam agent send --target '#general:ab12' --content '<reply>'` with the reply inside the single quotes of --content (write a ' in it as '\\'')",
    );
    expect(crossTargetInstruction(sendSurfaceFor(namingFor('claude-code')), 'zh-CN')).toContain(
      'allow_cross_target: true',
    );
  });
});

describe('the CLI agent-tools variant renders the real command (issue 14)', () => {
  const cli = sendSurfaceFor(namingFor('claude-code'), 'cli');
  it('is `agentteam agent send` with --content, never the operator command `agentteam send … --text`', () => {
    for (const language of ['en', 'zh-CN'] as const) {
      const texts = [
        sendToolRef(cli, language),
        sendInstruction(cli, language, targetKey('dm:@alice')),
        sendInstruction(cli, language, null),
        crossTargetInstruction(cli, language),
      ];
      for (const t of texts) {
        expect(t).not.toMatch(/agentteam send\b/);
        expect(t).not.toMatch(/--text\b/);
      }
      expect(texts[1]).toContain("`agentteam agent send --target 'dm:@alice' --content '<reply>'`");
      expect(texts[2]).toContain("`agentteam agent send --target '<target>' --content '<reply>'`");
      expect(texts[3]).toContain('--allow-cross-target');
    }
  });

  it('names only options the command accepts', async () => {
    const { AGENT_USAGE } = await import('../../../../../main/daemon/mcp/agent-tools-command.js');
    const rendered = [sendInstruction(cli, 'en', targetKey('#general')), crossTargetInstruction(cli, 'en')].join(' ');
    for (const flag of rendered.match(/--[a-z-]+/g) ?? []) expect(AGENT_USAGE).toContain(flag);
  });
});
