import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../../shared/api/contract.js';
import { completeMention, matchAgents, mentionAt, unknownMentions } from '../../../../renderer/src/compose/mention.js';
import { wordsOf } from '../../../fixtures/runtime-words.js';

const agent = (id: string, name: string): Agent => ({
  id,
  name,
  runtime: 'demo',
  runtimeWords: wordsOf('demo'),
  model: null,
  state: 'idle',
  demo: false,
});
const agents = [agent('claude', 'Claude'), agent('codex', 'Codex'), agent('demo', 'Demo'), agent('oc', 'OpenCode')];

describe('@mention completion', () => {
  it('finds the mention being typed at the caret', () => {
    expect(mentionAt('hi @cl', 6)).toEqual({ start: 3, query: 'cl' });
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAt('(@de', 4)).toEqual({ start: 1, query: 'de' });
  });

  it('ignores an @ inside a word (an e-mail address) or before the caret word', () => {
    expect(mentionAt('mail a@b', 8)).toBeNull();
    expect(mentionAt('@claude hi', 10)).toBeNull();
  });

  it('matches ids first, then names', () => {
    expect(matchAgents(agents, 'c').map((a) => a.id)).toEqual(['claude', 'codex']);
    expect(matchAgents(agents, 'open').map((a) => a.id)).toEqual(['oc']);
    expect(matchAgents(agents, '').map((a) => a.id)).toEqual(['claude', 'codex', 'demo', 'oc']);
  });

  it('replaces the partial mention with the id and a space, caret after it', () => {
    const text = 'hi @cl please';
    const m = mentionAt(text, 6)!;
    expect(completeMention(text, m, 'claude')).toEqual({ text: 'hi @claude please', caret: 11 });
    expect(completeMention('@', { start: 0, query: '' }, 'demo')).toEqual({ text: '@demo ', caret: 6 });
  });
});

describe('unknownMentions (issue 40 item 2)', () => {
  it('names each mention that matches no agent once, as written, by the router rule', () => {
    expect(unknownMentions('@nobody can you help? @Nobody, @claude and ops@nobody.dev', agents)).toEqual(['nobody']);
    expect(unknownMentions('@CLAUDE and @oc.', agents)).toEqual([]);
    expect(unknownMentions('@ghost @spirit', agents)).toEqual(['ghost', 'spirit']);
  });
  it('leaves out the mention still being typed at the caret', () => {
    expect(unknownMentions('hi @de', agents, 3)).toEqual([]);
    expect(unknownMentions('@zz hi @de', agents, 7)).toEqual(['zz']);
  });
});
