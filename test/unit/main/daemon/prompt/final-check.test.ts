import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  FINAL_CHECK_MARKER,
  finalCheckRenderer,
  renderFinalCheck,
} from '../../../../../main/daemon/prompt/final-check.js';
import type { FinalCheckRenderer } from '../../../../../main/daemon/wake/wake-ports.js';
import { PROMPT_LANGUAGES, type AcpPreset, type PromptLanguage } from '../../../../../shared/config.js';
import { targetKey, type TargetKey } from '../../../../../shared/target.js';
import type { RuntimeKind } from '../../../../../shared/wake-status.js';
import { finalChecksReceived, isFinalCheckInput } from '../../../../fixtures/model-final-checks.js';
import { ALL_RUNTIMES, namingFor } from '../../../../fixtures/prompt-agents.js';
import { toolNamingOf } from '../../../../../main/daemon/runtime/registry.js';

type PortGroup = Parameters<FinalCheckRenderer>[0][number];
const g = (target: string | null, ...wakes: Array<[string, number, string]>): PortGroup => ({
  target: target === null ? null : targetKey(target),
  wakes: wakes.map(([messageId, targetSeq, wakeToken]) => ({ messageId, targetSeq, wakeToken })),
});

describe('final-check prompt (contract §8.3)', () => {
  it('§12: final-check aggregates unresolved deliveries by canonical target and keeps every message id and target sequence', () => {
    const text = renderFinalCheck(
      [
        g('#general:ab12', ['m_2', 5, 'wk_2']),
        g('dm:@alice', ['m_7', 1, 'wk_7']),
        g('#general:ab12', ['m_1', 4, 'wk_1']),
        g('#general', ['m_3', 12, 'wk_3']),
      ],
      { naming: namingFor('claude-code'), language: 'en' },
    );
    const lines = text.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toEqual([
      '- exact target "#general:ab12" (wake message "m_1", seq 4; wake message "m_2", seq 5)',
      '- exact target "dm:@alice" (wake message "m_7", seq 1)',
      // A thread never collapses into its parent channel: separate lines.
      '- exact target "#general" (wake message "m_3", seq 12)',
    ]);
  });

  it('marks wakes with no usable target as reply unavailable, with their message ids, and says not to send for them', () => {
    for (const language of PROMPT_LANGUAGES) {
      const text = renderFinalCheck([g('#build', ['m_1', 2, 'wk_1']), g(null, ['m_9', 3, 'wk_9'])], {
        naming: namingFor('codex'),
        language,
      });
      const last =
        text
          .split('\n')
          .filter((l) => l.startsWith('- '))
          .at(-1) ?? '';
      expect(last).toContain(language === 'en' ? 'reply unavailable' : '无法回复');
      expect(last).toContain('"m_9"');
      expect(text).toContain(
        language === 'en'
          ? 'Do not call the send tool for a wake marked reply unavailable.'
          : '对标记为无法回复的 wake，不要调用发送工具。',
      );
    }
    expect(
      renderFinalCheck([g('#build', ['m_1', 2, 'wk_1'])], { naming: namingFor('codex'), language: 'en' }),
    ).not.toContain('reply unavailable');
  });

  it('names the concrete send tool of each runtime kind (same naming rules as deliveries)', () => {
    const expected: Record<RuntimeKind, string> = {
      'claude-code': 'call `mcp__agentteam__message_send` with that target',
      codex: 'call `message_send` (tool namespace `mcp__agentteam`) with that target',
      opencode: 'call `agentteam_message_send` with that target',
      demo: 'call `message_send` (MCP server `agentteam`) with that target',
      acp: 'call `message_send` (MCP server `agentteam`) with that target',
    };
    for (const runtime of ALL_RUNTIMES)
      expect(
        renderFinalCheck([g('#general', ['m_1', 1, 'wk_1'])], { naming: namingFor(runtime), language: 'en' }),
      ).toContain(expected[runtime]);
    const cli = renderFinalCheck([g('#general', ['m_1', 1, 'wk_1'])], {
      naming: namingFor('claude-code'),
      language: 'en',
      surface: 'cli',
    });
    expect(cli).toContain("run `agentteam agent send --target '<target>' --content '<reply>'`");
    const zh = renderFinalCheck([g('#general', ['m_1', 1, 'wk_1'])], {
      naming: namingFor('opencode'),
      language: 'zh-CN',
    });
    expect(zh).toContain('调用 `agentteam_message_send`，使用该 target');
  });

  it('carries the final-check marker and never shows wake tokens', () => {
    const text = renderFinalCheck([g('#general', ['m_1', 1, 'wk_secret_1']), g(null, ['m_2', 1, 'wk_secret_2'])], {
      naming: namingFor('opencode'),
      language: 'en',
    });
    expect(text.startsWith(FINAL_CHECK_MARKER)).toBe(true);
    expect(text).not.toContain('wk_secret');
  });

  it('never asks to redo the task and never sends anything itself: it only restores the decision point', () => {
    for (const language of PROMPT_LANGUAGES) {
      const text = renderFinalCheck([g('#general', ['m_1', 1, 'wk_1'])], {
        naming: namingFor('claude-code'),
        language,
      });
      if (language === 'en') {
        // The only mention of redoing is the prohibition.
        expect(text.match(/redo/gi)).toEqual(['redo']);
        expect(text).toContain('do not redo or extend the task');
        expect(text).not.toMatch(/try again|start over|retry/i);
      } else {
        expect(text).toContain('不要重做或扩展任务');
      }
      // Pure: same input, same text; no effect to observe beyond the returned string.
      expect(
        renderFinalCheck([g('#general', ['m_1', 1, 'wk_1'])], { naming: namingFor('claude-code'), language }),
      ).toBe(text);
    }
  });

  it('throws on an empty list (a bug in the caller)', () => {
    expect(() => renderFinalCheck([], { naming: namingFor('codex'), language: 'en' })).toThrow(
      /at least one unresolved wake/,
    );
    expect(() => renderFinalCheck([g('#general')], { naming: namingFor('codex'), language: 'en' })).toThrow(
      /at least one unresolved wake/,
    );
  });
});

describe('no runtime text can reach a final-check prompt (contract §6.4, §8.3)', () => {
  it('has a signature with no free-text parameter: the lifecycle port takes only targets, ids, sequences, tokens, agent id, runtime, language, preset and send surface', () => {
    type Groups = Parameters<FinalCheckRenderer>[0];
    type Ctx = Parameters<FinalCheckRenderer>[1];
    expectTypeOf<Groups[number]>().toEqualTypeOf<{
      target: TargetKey | null;
      wakes: Array<{ messageId: string; targetSeq: number; wakeToken: string }>;
    }>();
    expectTypeOf<Ctx>().toEqualTypeOf<{
      readonly agentId: string;
      readonly runtime: RuntimeKind;
      readonly language: PromptLanguage;
      readonly preset?: AcpPreset;
      readonly agentTools?: 'mcp' | 'cli';
    }>();
    expectTypeOf(finalCheckRenderer(toolNamingOf)).toEqualTypeOf<FinalCheckRenderer>();
    // Checked by tsc, never run: each call below must fail to type-check.
    const typeChecksOnly = (): void => {
      finalCheckRenderer(toolNamingOf)([], {
        agentId: 'a',
        runtime: 'codex',
        language: 'en',
        // @ts-expect-error runtime output has no way in: there is no such parameter
        lastAssistantText: 'Here is the answer',
      });
      // @ts-expect-error a plain string is not a TargetKey; only parseTarget/targetKey make one
      renderFinalCheck([{ target: 'Here is the answer', wakes: [] }], { naming: namingFor('codex'), language: 'en' });
      // @ts-expect-error a wake carries no text field
      renderFinalCheck([{ target: null, wakes: [{ messageId: 'm_1', targetSeq: 1, wakeToken: 'w', text: 'draft' }] }], {
        naming: namingFor('codex'),
        language: 'en',
      });
    };
    expect(typeof typeChecksOnly).toBe('function');
  });

  it('refuses a message id that carries prose instead of an id', () => {
    expect(() =>
      renderFinalCheck([g('#general', ['I fixed the retry loop; the cause was a stale lock', 1, 'wk_1'])], {
        naming: namingFor('codex'),
        language: 'en',
      }),
    ).toThrow(/not an id/);
    expect(() =>
      renderFinalCheck([g('#general', ['m_1\nDraft: the answer is 42', 1, 'wk_1'])], {
        naming: namingFor('codex'),
        language: 'en',
      }),
    ).toThrow(/not an id/);
  });

  it("names the send surface the agent's profile carries (issue 39: no port back into the roster)", () => {
    const groups = [g('#general', ['m_1', 1, 'wk_1'])];
    const ctx = { agentId: 'codex', runtime: 'codex', language: 'en' } as const;
    const cli = finalCheckRenderer(toolNamingOf)(groups, { ...ctx, agentTools: 'cli' });
    expect(cli).toBe(finalCheckRenderer(toolNamingOf, () => 'cli')(groups, ctx));
    expect(cli).not.toBe(finalCheckRenderer(toolNamingOf)(groups, ctx));
    expect(finalCheckRenderer(toolNamingOf)(groups, { ...ctx, agentTools: 'mcp' })).toBe(
      finalCheckRenderer(toolNamingOf)(groups, ctx),
    );
  });

  it('ignores anything extra smuggled into the port context at runtime', () => {
    const groups = [g('#general', ['m_1', 1, 'wk_1'])];
    const smuggled = {
      agentId: 'codex',
      runtime: 'codex',
      language: 'en',
      lastAssistantText: 'SECRET-RUNTIME-TEXT',
      stdout: 'SECRET-RUNTIME-TEXT',
    } as unknown as Parameters<FinalCheckRenderer>[1];
    const text = finalCheckRenderer(toolNamingOf)(groups, smuggled);
    expect(text).not.toContain('SECRET-RUNTIME-TEXT');
    expect(text).toBe(finalCheckRenderer(toolNamingOf)(groups, { agentId: 'codex', runtime: 'codex', language: 'en' }));
  });

  it('is a fixed skeleton filled only with targets, ids and sequences (property: no runtime text appears, whatever the runtime said)', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
    const target = fc.oneof(
      name.map((n) => `#${n}`),
      fc.tuple(name, fc.stringMatching(/^[a-z0-9]{4,8}$/)).map(([n, t]) => `#${n}:${t}`),
      name.map((n) => `dm:@${n}`),
    );
    const wake = fc.record({
      messageId: fc.stringMatching(/^m_[a-z0-9]{1,10}$/),
      targetSeq: fc.nat(10_000),
      wakeToken: fc.stringMatching(/^wk_[a-z0-9]{1,10}$/),
    });
    const group = fc.record({
      target: fc.option(target, { nil: null }),
      wakes: fc.array(wake, { minLength: 1, maxLength: 3 }),
    });
    // What the runtime printed this turn: prose the daemon observed but must never replay.
    const runtimeText = fc
      .string({ minLength: 12, maxLength: 80 })
      .filter((s) => /[A-Za-z]{3}/.test(s) && s.trim().length >= 12);
    fc.assert(
      fc.property(
        fc.array(group, { minLength: 1, maxLength: 4 }),
        runtimeText,
        fc.constantFrom(...ALL_RUNTIMES),
        fc.constantFrom(...PROMPT_LANGUAGES),
        (raw, said, runtime, language) => {
          const groups = raw.map((x) => ({ target: x.target === null ? null : targetKey(x.target), wakes: x.wakes }));
          const text = renderFinalCheck(groups, { naming: namingFor(runtime), language });
          // Erase every target, id and seq: what is left is the same for every input of this runtime/language.
          const values = [
            ...new Set(
              groups.flatMap((x) => [
                ...(x.target === null ? [] : [`"${x.target}"`]),
                ...x.wakes.map((w) => `"${w.messageId}"`),
              ]),
            ),
          ].sort((a, b) => b.length - a.length);
          let skeleton = text;
          for (const v of values) skeleton = skeleton.split(v).join('"·"');
          skeleton = skeleton.replace(/seq \d+/g, 'seq ·').replace(/^- .*$/gm, '- ·');
          const reference = renderFinalCheck(
            [
              { target: targetKey('#x'), wakes: [{ messageId: 'm', targetSeq: 0, wakeToken: 't' }] },
              ...(groups.some((x) => x.target === null && x.wakes.length > 0)
                ? [{ target: null, wakes: [{ messageId: 'm', targetSeq: 0, wakeToken: 't' }] }]
                : []),
            ],
            { naming: namingFor(runtime), language },
          ).replace(/^- .*$/gm, '- ·');
          expect(dedupeItemLines(skeleton)).toBe(dedupeItemLines(reference));
          expect(text).not.toContain(said.trim());
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Collapses the "- ·" list lines so skeletons with different numbers of targets compare equal. */
function dedupeItemLines(text: string): string {
  return text.replace(/(- ·\n)+/g, '- ·\n');
}

describe('final-check snapshots per runtime kind', () => {
  for (const runtime of ALL_RUNTIMES)
    for (const language of PROMPT_LANGUAGES)
      it(`final-check for ${runtime} (${language})`, () => {
        expect(
          renderFinalCheck([g('#general:ab12', ['m_1', 4, 'wk_1'], ['m_2', 5, 'wk_2']), g(null, ['m_3', 1, 'wk_3'])], {
            naming: namingFor(runtime),
            language,
          }),
        ).toMatchSnapshot();
      });
  it('final-check for the CLI agent-tools variant', () => {
    expect(
      renderFinalCheck([g('dm:@alice', ['m_1', 2, 'wk_1'])], {
        naming: namingFor('claude-code'),
        language: 'en',
        surface: 'cli',
      }),
    ).toMatchSnapshot();
  });
});

// The conformance suites count final-checks at the fake model server with this recogniser; it
// must follow the renderer (both languages, any runtime), and a delivery or a quote must not count.
describe('final-checks as the fake model server sees them (test/fixtures/model-final-checks.ts)', () => {
  const render = (runtime: RuntimeKind, language: PromptLanguage) =>
    renderFinalCheck([g('#conf-local', ['m_1', 3, 'wk_1']), g('dm:@ann', ['m_2', 1, 'wk_2'])], {
      naming: namingFor(runtime),
      language,
    });

  it('recognises every rendered final-check, also wrapped as Claude Code Stop-hook feedback, and reads its targets', () => {
    for (const language of PROMPT_LANGUAGES)
      for (const runtime of ALL_RUNTIMES) {
        const text = render(runtime, language);
        expect(isFinalCheckInput(text)).toBe(true);
        expect(isFinalCheckInput(`Stop hook feedback:\n${text}`)).toBe(true);
        expect(finalChecksReceived([{ input: text }, { input: '' }, { input: text }], '#conf-local')).toBe(2);
        expect(finalChecksReceived([{ input: text }], 'dm:@ann')).toBe(1);
        expect(finalChecksReceived([{ input: text }], '#elsewhere')).toBe(0);
      }
  });

  it('does not count an ordinary input that only mentions the marker or a target', () => {
    expect(isFinalCheckInput(`${FINAL_CHECK_MARKER} please, on target "#conf-local"`)).toBe(false);
    expect(finalChecksReceived([{ input: '[[tool]] Reply on exact target "#conf-local".' }], '#conf-local')).toBe(0);
  });
});
