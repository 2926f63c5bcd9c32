/**
 * Maps Claude Code stream-json events onto driver events (research/runtimes.md §3):
 * `system/init` names the session and opens a turn, `assistant` blocks become local text and
 * tool call names, `result` ends the turn (failed with a structured detail when `is_error`).
 * Pure, so it is table-tested without the CLI; control messages are handled by the driver.
 */
import { claudeRateLimitWindow, claudeResultUsage } from '../usage-report.js';
import { boundedDetail } from '../runtime-adapter.js';
import type { DriverEvent } from '../driver-session.js';
import type { ClaudeResultMessage, ClaudeStreamMessage } from './claude-stream-types.js';

export interface ClaudeTurnState {
  turnOpen: boolean;
  /** The host asked for an interrupt: an error result is then an interruption, not a failure. */
  interruptRequested: boolean;
}

export function initialTurnState(): ClaudeTurnState {
  return { turnOpen: false, interruptRequested: false };
}

/** The bounded, structured detail of an error result; the result text is an API error string, never model prose. */
export function resultErrorDetail(ev: ClaudeResultMessage): string {
  const parts: string[] = [];
  if (typeof ev.api_error_status === 'number') parts.push(`api_error_status ${ev.api_error_status}`);
  if (ev.terminal_reason !== undefined) parts.push(`terminal_reason ${ev.terminal_reason}`);
  if (ev.subtype !== undefined && ev.subtype !== 'success') parts.push(ev.subtype);
  // CLI error strings (never model prose): API errors and the sign-in refusal (issue 15).
  if (ev.result !== undefined && /^(API Error|Not logged in|Invalid API key|Prompt is too long)/.test(ev.result))
    parts.push(ev.result);
  parts.push(...(ev.errors ?? []).filter((e): e is string => typeof e === 'string'));
  return boundedDetail(parts.length > 0 ? parts.join(': ') : 'claude reported an error result');
}

export function mapClaudeEvent(state: ClaudeTurnState, ev: ClaudeStreamMessage): DriverEvent[] {
  const out: DriverEvent[] = [];
  const openTurn = () => {
    if (!state.turnOpen) {
      state.turnOpen = true;
      out.push({ type: 'turn_started' });
    }
  };
  switch (ev.type) {
    case 'system': {
      if (ev.subtype === 'init') {
        if (ev.session_id !== undefined) out.push({ type: 'session', sessionId: ev.session_id });
        openTurn();
      } else if (ev.subtype === 'compact_boundary') {
        // issue 24: Claude Code compacted the session (`/compact` or auto-compact) and goes on: a continuation.
        out.push({ type: 'context_compacted' });
      }
      break;
    }
    case 'assistant': {
      openTurn();
      // An API error arrives as a synthetic assistant message; its text is the error, reported at `result`.
      if (ev.error !== undefined && ev.error !== null) break;
      for (const block of ev.message?.content ?? []) {
        if (block.type === 'text' && block.text !== '') out.push({ type: 'local_text', text: block.text });
        else if (block.type === 'tool_use') out.push({ type: 'tool_call', name: block.name });
      }
      break;
    }
    case 'result': {
      const interrupted = state.interruptRequested;
      state.interruptRequested = false;
      openTurn();
      state.turnOpen = false;
      // issue 27: the turn's usage and cost as Claude Code reports them, before the turn ends.
      const usage = claudeResultUsage(ev);
      if (usage !== null) out.push({ type: 'usage', usage });
      if (ev.is_error === true && !interrupted) {
        const detail = resultErrorDetail(ev);
        // issue 16, 38: the provider refused the prompt as too long ("Prompt is too long"): compacted or renewed.
        if (/prompt is too long/i.test(`${ev.result ?? ''} ${detail}`)) out.push({ type: 'context_overflow' });
        out.push({ type: 'turn_ended', outcome: 'failed', error: detail });
      } else out.push({ type: 'turn_ended', outcome: interrupted ? 'interrupted' : 'completed', error: null });
      break;
    }
    default:
      // issue 27: Claude Code's rate-limit window (outside the typed union: read defensively).
      if ((ev as { readonly type: string }).type === 'rate_limit_event') {
        const window = claudeRateLimitWindow(ev);
        if (window !== null) out.push({ type: 'limit_window', window });
      }
      break;
  }
  return out;
}
