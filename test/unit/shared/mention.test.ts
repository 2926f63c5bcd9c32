/** The one mention rule the router, the message list and the composer share (issue 40 item 2). */
import { describe, expect, it } from 'vitest';
import { mentionedIds, mentionsIn, withoutMentions } from '../../../shared/mention.js';

describe('mentionsIn / mentionedIds', () => {
  it('finds mentions in order, once, case-insensitively, without trailing punctuation', () => {
    expect(mentionedIds('@Claude and @codex, then @claude again. thanks @demo.')).toEqual(['claude', 'codex', 'demo']);
  });
  it('ignores e-mail addresses and mid-word @', () => {
    expect(mentionedIds('mail ops@claude.dev or a@b')).toEqual([]);
  });
  it('keeps the case as written and the index of each "@", repeats included', () => {
    expect(mentionsIn('(@Demo) ask @nobody, @demo.')).toEqual([
      { id: 'Demo', index: 1 },
      { id: 'nobody', index: 12 },
      { id: 'demo', index: 21 },
    ]);
  });
  it('reads at most 64 characters of an id, as the target grammar allows', () => {
    expect(mentionedIds(`@${'a'.repeat(70)}`)).toEqual(['a'.repeat(64)]);
  });
});

describe('withoutMentions', () => {
  it('quotes a text so that it mentions nobody', () => {
    const quoted = withoutMentions('ask @claude, not ops@claude.dev');
    expect(quoted).toBe('ask claude, not ops@claude.dev');
    expect(mentionedIds(quoted)).toEqual([]);
  });
});
