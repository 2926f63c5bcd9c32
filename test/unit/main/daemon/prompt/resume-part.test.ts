import { describe, expect, it } from 'vitest';
import { compilePrompt, deliveryPart, resumePart } from '../../../../../main/daemon/prompt/prompt-compiler.js';
import { PROMPT_LANGUAGES } from '../../../../../shared/config.js';
import { targetKey } from '../../../../../shared/target.js';
import { agentFor, message } from '../../../../fixtures/prompt-agents.js';

const general = targetKey('#general');
const ops = targetKey('#ops');

describe('resumePart (issue 38): wakes a usage pause took back from a session that still holds them', () => {
  it.each(PROMPT_LANGUAGES)(
    '%s: one block per exact target at its highest TargetSeq, never the task again',
    (language) => {
      const part = resumePart(
        [
          { target: general, targetSeq: 2, wakeToken: 'w2' },
          { target: general, targetSeq: 5, wakeToken: 'w5' },
          { target: ops, targetSeq: 1, wakeToken: 'w1' },
        ],
        language,
      );
      expect(part.targets).toEqual([general, ops]);
      expect(part.wakeTokens).toEqual(['w2', 'w5', 'w1']);
      expect(part.body.match(/<agentteam-resume target="#general" seq="5">/g)).toHaveLength(1);
      expect(part.body).toContain('<agentteam-resume target="#ops" seq="1">');
      expect(part.body).not.toContain('seq="2"');
    },
  );

  it('rides a delivery with fresh inputs: one turn context, the resume block, the new envelope, one tail naming both targets', () => {
    const agent = agentFor('claude-code');
    const fresh = message({ target: '#ops', targetSeq: 3, content: 'A new question.' });
    const prompt = compilePrompt(
      agent,
      [resumePart([{ target: general, targetSeq: 4, wakeToken: 'w4' }]), deliveryPart([fresh])],
      { turn: 'wake' },
    );
    expect(prompt.targets).toEqual([general, ops]);
    expect(prompt.text.indexOf('<agentteam-resume')).toBeLessThan(prompt.text.indexOf('A new question.'));
    expect(prompt.text.match(/Self-check before you write/g)).toHaveLength(1);
  });

  it('refuses no wakes (a bug, not a boundary error)', () => {
    expect(() => resumePart([])).toThrow(/at least one wake/);
  });
});
