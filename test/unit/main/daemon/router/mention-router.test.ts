import { describe, expect, it } from 'vitest';
import { agentsToWake } from '../../../../../main/daemon/router/mention-router.js';
import { parseTarget, type Target } from '../../../../../shared/target.js';

const t = (text: string): Target => {
  const r = parseTarget(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.target;
};
const agents = new Set(['claude', 'codex', 'demo']);

describe('agentsToWake', () => {
  it('wakes only mentioned, known agents in a channel', () => {
    expect(
      agentsToWake({ target: t('#general'), authorKind: 'operator', content: '@claude @nobody hi', agentIds: agents }),
    ).toEqual(['claude']);
  });
  it('wakes nobody in a channel without a mention', () => {
    expect(
      agentsToWake({ target: t('#general'), authorKind: 'operator', content: 'hello all', agentIds: agents }),
    ).toEqual([]);
  });
  it('wakes the DM agent first, then other mentions, also in a DM thread', () => {
    expect(
      agentsToWake({
        target: t('dm:@codex:ab12'),
        authorKind: 'operator',
        content: 'ask @claude too',
        agentIds: agents,
      }),
    ).toEqual(['codex', 'claude']);
  });
  // issue 25: agents address agents
  it("wakes the agents an agent's message addresses, never its author, each once", () => {
    expect(
      agentsToWake({
        target: t('#general'),
        authorKind: 'agent',
        authorId: 'claude',
        content: '@codex review this, @claude will merge, @CODEX again, @nobody',
        agentIds: agents,
      }),
    ).toEqual(['codex']);
  });
  it("an agent in its own DM wakes only the others it mentions; in another agent's DM, that agent", () => {
    const own = { target: t('dm:@claude'), authorKind: 'agent' as const, authorId: 'claude', agentIds: agents };
    expect(agentsToWake({ ...own, content: 'asking @codex' })).toEqual(['codex']);
    expect(agentsToWake({ ...own, content: 'note to @claude' })).toEqual([]);
    expect(
      agentsToWake({ target: t('dm:@demo'), authorKind: 'agent', authorId: 'claude', content: 'hi', agentIds: agents }),
    ).toEqual(['demo']);
  });
  it('wakes no one for an agent-authored message without its author id', () => {
    expect(
      agentsToWake({ target: t('dm:@claude'), authorKind: 'agent', content: '@codex please', agentIds: agents }),
    ).toEqual([]);
  });
});
