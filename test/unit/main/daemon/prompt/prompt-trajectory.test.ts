import { describe, expect, it } from 'vitest';
import { compileDelivery, compileRecovery } from '../../../../../main/daemon/prompt/prompt-compiler.js';
import { PromptTrajectory, recordingFinalCheckRenderer } from '../../../../../main/daemon/prompt/prompt-trajectory.js';
import { renderFinalCheck } from '../../../../../main/daemon/prompt/final-check.js';
import { targetKey } from '../../../../../shared/target.js';
import { InMemoryPromptInputStore } from '../../../../fixtures/in-memory-prompt-store.js';
import { agentFor, message, namingFor } from '../../../../fixtures/prompt-agents.js';
import { toolNamingOf } from '../../../../../main/daemon/runtime/registry.js';

describe('prompt_input trajectory (contract §8.4)', () => {
  it('stores every rendered turn context, delivery text and final-check prompt, linked to its wakes and readable in order', () => {
    const store = new InMemoryPromptInputStore();
    const trajectory = new PromptTrajectory(store);
    const agent = agentFor('claude-code');

    const first = compileDelivery(agent, [message({ messageId: 'm_1', wakeToken: 'wk_1', targetSeq: 1 })], {
      turn: 'wake',
    });
    trajectory.record(first.promptInputs);
    const batch = compileDelivery(
      agent,
      [
        message({ messageId: 'm_2', wakeToken: 'wk_2', targetSeq: 2 }),
        message({ messageId: 'm_3', wakeToken: 'wk_3', target: 'dm:@alice', targetSeq: 1 }),
      ],
      { turn: 'wake' },
    );
    trajectory.record(batch.promptInputs);

    const finalCheck = recordingFinalCheckRenderer(trajectory, toolNamingOf);
    const groups = [
      {
        target: targetKey('#general:ab12'),
        wakes: [
          { messageId: 'm_1', targetSeq: 1, wakeToken: 'wk_1' },
          { messageId: 'm_2', targetSeq: 2, wakeToken: 'wk_2' },
        ],
      },
      { target: targetKey('dm:@alice'), wakes: [{ messageId: 'm_3', targetSeq: 1, wakeToken: 'wk_3' }] },
    ];
    const text = finalCheck(groups, { agentId: agent.id, runtime: 'claude-code', language: 'en' });
    expect(text).toBe(renderFinalCheck(groups, { naming: namingFor('claude-code'), language: 'en' }));

    const wk1 = trajectory.list('wk_1');
    expect(wk1.map((e) => e.kind)).toEqual(['turn_context', 'delivery', 'final_check']);
    expect(wk1.map((e) => e.text)).toEqual([first.turnContext, first.delivery, text]);
    expect(wk1.map((e) => e.seq)).toEqual([...wk1.map((e) => e.seq)].sort((a, b) => a - b));
    const wk3 = trajectory.list('wk_3');
    expect(wk3.map((e) => e.kind)).toEqual(['turn_context', 'delivery', 'final_check']);
    expect(wk3[1]?.wakeTokens).toEqual(['wk_2', 'wk_3']);
    expect(wk3[2]?.wakeTokens).toEqual(['wk_1', 'wk_2', 'wk_3']);
    expect(store.entries.every((e) => e.agentId === 'claude')).toBe(true);
    expect(trajectory.list('wk_unknown')).toEqual([]);
  });

  it('the text written into the session is exactly the stored entries joined in order', () => {
    const store = new InMemoryPromptInputStore();
    const trajectory = new PromptTrajectory(store);
    const c = compileDelivery(agentFor('codex', 'zh-CN'), [message({ wakeToken: 'wk_9' })], { turn: 'resume' });
    trajectory.record(c.promptInputs);
    expect(
      trajectory
        .list('wk_9')
        .map((e) => e.text)
        .join('\n\n'),
    ).toBe(c.text);
  });

  it('stores a context-recovery continuation as a recovery entry on the synthetic wake only', () => {
    const store = new InMemoryPromptInputStore();
    const trajectory = new PromptTrajectory(store);
    const c = compileRecovery(agentFor('opencode'), {
      syntheticMessageId: 'rc_1',
      wakeToken: 'wk_r',
      target: targetKey('#build:aa11'),
      targetSeq: 3,
    });
    trajectory.record(c.promptInputs);
    expect(trajectory.list('wk_r').map((e) => e.kind)).toEqual(['turn_context', 'recovery']);
    expect(store.entries.flatMap((e) => e.wakeTokens)).toEqual(['wk_r', 'wk_r']);
  });

  it('records a final-check before returning it, linked once to each listed wake', () => {
    const store = new InMemoryPromptInputStore();
    const render = recordingFinalCheckRenderer(new PromptTrajectory(store), toolNamingOf);
    render(
      [
        { target: null, wakes: [{ messageId: 'm_1', targetSeq: 1, wakeToken: 'wk_1' }] },
        { target: null, wakes: [{ messageId: 'm_2', targetSeq: 2, wakeToken: 'wk_1' }] },
      ],
      { agentId: 'codex', runtime: 'codex', language: 'en' },
    );
    expect(store.entries).toHaveLength(1);
    expect(store.entries[0]?.agentId).toBe('codex');
    expect(store.entries[0]?.kind).toBe('final_check');
    expect(store.entries[0]?.wakeTokens).toEqual(['wk_1']);
  });
});
