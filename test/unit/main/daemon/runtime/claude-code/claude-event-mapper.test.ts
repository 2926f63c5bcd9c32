import { describe, expect, it } from 'vitest';
import {
  initialTurnState,
  mapClaudeEvent,
  resultErrorDetail,
} from '../../../../../../main/daemon/runtime/claude-code/claude-event-mapper.js';
import type { ClaudeStreamMessage } from '../../../../../../main/daemon/runtime/claude-code/claude-stream-types.js';

const init: ClaudeStreamMessage = { type: 'system', subtype: 'init', session_id: 's1' };
const text = (t: string): ClaudeStreamMessage => ({
  type: 'assistant',
  message: { content: [{ type: 'text', text: t }] },
});
const tool: ClaudeStreamMessage = {
  type: 'assistant',
  message: {
    content: [{ type: 'tool_use', id: 't', name: 'mcp__agentteam__message_send', input: { content: 'the reply' } }],
  },
};

describe('mapClaudeEvent', () => {
  it('maps a turn: init names the session and opens the turn once, text and tool_use pass on, result ends it', () => {
    const state = initialTurnState();
    const events: ClaudeStreamMessage[] = [
      init,
      text('héllo 👋'),
      tool,
      init,
      { type: 'result', subtype: 'success', is_error: false, result: 'héllo 👋' },
    ];
    const mapped = events.flatMap((e) => mapClaudeEvent(state, e));
    // The skeleton reduces local text to counts (runtime-skeleton.test.ts: contract §6.5).
    expect(mapped).toEqual([
      { type: 'session', sessionId: 's1' },
      { type: 'turn_started' },
      { type: 'local_text', text: 'héllo 👋' },
      { type: 'tool_call', name: 'mcp__agentteam__message_send' },
      { type: 'session', sessionId: 's1' },
      { type: 'turn_ended', outcome: 'completed', error: null },
    ]);
  });

  it('an error result ends the turn failed with its structured detail; the synthetic error message is not local text', () => {
    const state = initialTurnState();
    const synthetic: ClaudeStreamMessage = {
      type: 'assistant',
      error: 'invalid_request',
      message: { content: [{ type: 'text', text: 'API Error: 400 bad' }] },
    };
    const result: ClaudeStreamMessage = {
      type: 'result',
      subtype: 'success',
      is_error: true,
      api_error_status: 400,
      result: 'API Error: 400 bad',
    };
    expect([init, synthetic, result].flatMap((e) => mapClaudeEvent(state, e))).toEqual([
      { type: 'session', sessionId: 's1' },
      { type: 'turn_started' },
      { type: 'turn_ended', outcome: 'failed', error: 'api_error_status 400: API Error: 400 bad' },
    ]);
  });

  it('an error result after an interrupt request is an interruption, not a failure', () => {
    const state = initialTurnState();
    mapClaudeEvent(state, init);
    state.interruptRequested = true;
    expect(mapClaudeEvent(state, { type: 'result', subtype: 'error_during_execution', is_error: true })).toEqual([
      { type: 'turn_ended', outcome: 'interrupted', error: null },
    ]);
    expect(state.interruptRequested).toBe(false);
  });

  it('issue 27: the result usage and cost come before the turn ends; a rate_limit_event is a limit window', () => {
    const state = initialTurnState();
    mapClaudeEvent(state, init);
    const result = {
      type: 'result',
      subtype: 'success',
      total_cost_usd: 0.042,
      usage: { input_tokens: 7, cache_creation_input_tokens: 3, cache_read_input_tokens: 50, output_tokens: 9 },
    } as unknown as ClaudeStreamMessage;
    expect(mapClaudeEvent(state, result)).toEqual([
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 9, cachedTokens: 50, costUsd: 0.042 } },
      { type: 'turn_ended', outcome: 'completed', error: null },
    ]);
    const limit = {
      type: 'rate_limit_event',
      rate_limit_info: { status: 'allowed', resetsAt: 1_796_220_300, rateLimitType: 'five_hour', utilization: 0.72 },
    } as unknown as ClaudeStreamMessage;
    expect(mapClaudeEvent(state, limit)).toEqual([
      {
        type: 'limit_window',
        window: {
          runtime: 'claude-code',
          window: 'five_hour',
          windowMinutes: 300,
          usedPercent: 72,
          resetsAt: '2026-12-02T14:05:00.000Z',
        },
      },
    ]);
  });

  it('a result without init still opens and closes a turn; unknown events map to nothing', () => {
    const state = initialTurnState();
    expect(mapClaudeEvent(state, { type: 'system', subtype: 'api_retry' })).toEqual([]);
    expect(mapClaudeEvent(state, { type: 'user', message: { content: [{ type: 'tool_result' }] } })).toEqual([]);
    expect(
      mapClaudeEvent(state, { type: 'result', subtype: 'error_during_execution', is_error: true, session_id: 's9' }),
    ).toEqual([{ type: 'turn_started' }, { type: 'turn_ended', outcome: 'failed', error: 'error_during_execution' }]);
  });

  it('bounds the error detail and never copies non-error result text', () => {
    expect(resultErrorDetail({ type: 'result', is_error: true, result: 'the model said a secret' })).toBe(
      'claude reported an error result',
    );
    expect(
      resultErrorDetail({ type: 'result', is_error: true, result: `API Error: 500 ${'x'.repeat(1000)}` }).length,
    ).toBe(300);
  });
});

describe('mapClaudeEvent: context resets (issue 16, contract §6.6)', () => {
  // issue 24: this asserted a context reset; a compaction is a continuation of the same turn now.
  it.each(['manual', 'auto'])('a compact_boundary (%s) is a compaction, no reset; the turn stays open', (trigger) => {
    const state = initialTurnState();
    state.turnOpen = true;
    expect(
      mapClaudeEvent(state, {
        type: 'system',
        subtype: 'compact_boundary',
        session_id: 's1',
        compact_metadata: { trigger, pre_tokens: 1200 },
      }),
    ).toEqual([{ type: 'context_compacted' }]);
    expect(state.turnOpen).toBe(true);
  });

  it('an error result "Prompt is too long" is a context overflow, reported before the failed turn end', () => {
    const state = initialTurnState();
    state.turnOpen = true;
    const out = mapClaudeEvent(state, {
      type: 'result',
      subtype: 'success',
      is_error: true,
      result: 'Prompt is too long',
    });
    expect(out.map((e) => e.type)).toEqual(['context_overflow', 'turn_ended']);
    expect(out[0]).toEqual({ type: 'context_overflow' });
  });

  it('another error result is no context reset', () => {
    const state = initialTurnState();
    state.turnOpen = true;
    const out = mapClaudeEvent(state, { type: 'result', is_error: true, result: 'API Error: 500 overloaded' });
    expect(out.map((e) => e.type)).toEqual(['turn_ended']);
  });
});
