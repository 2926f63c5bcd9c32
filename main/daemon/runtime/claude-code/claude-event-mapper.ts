/**
 * Maps Claude Code stream-json events onto driver events (research/runtimes.md §3):
 * `system/init` names the session and opens a turn, `assistant` blocks become local text and
 * tool call names, `result` ends the turn (failed with a structured detail when `is_error`).
 * Pure, so it is table-tested without the CLI; control messages are handled by the driver.
 */
import { boundedDetail } from '../runtime-adapter.js';
import type { DriverEvent } from '../driver-session.js';

export interface ClaudeTurnState {
  turnOpen: boolean;
  /** The host asked for an interrupt: an error result is then an interruption, not a failure. */
  interruptRequested: boolean;
}

export function initialTurnState(): ClaudeTurnState {
  return { turnOpen: false, interruptRequested: false };
}

type Json = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The bounded, structured detail of an error result; the result text is an API error string, never model prose. */
export function resultErrorDetail(ev: Json): string {
  const parts: string[] = [];
  if (typeof ev.api_error_status === 'number') parts.push(`api_error_status ${ev.api_error_status}`);
  const terminal = str(ev.terminal_reason);
  if (terminal !== null) parts.push(`terminal_reason ${terminal}`);
  const subtype = str(ev.subtype);
  if (subtype !== null && subtype !== 'success') parts.push(subtype);
  const result = str(ev.result);
  // CLI error strings (never model prose): API errors and the sign-in refusal (issue 15).
  if (result !== null && /^(API Error|Not logged in|Invalid API key|Prompt is too long)/.test(result))
    parts.push(result);
  const errors = Array.isArray(ev.errors) ? ev.errors.filter((e): e is string => typeof e === 'string') : [];
  parts.push(...errors);
  return boundedDetail(parts.length > 0 ? parts.join(': ') : 'claude reported an error result');
}

export function mapClaudeEvent(state: ClaudeTurnState, ev: Json): DriverEvent[] {
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
        const sessionId = str(ev.session_id);
        if (sessionId !== null) out.push({ type: 'session', sessionId });
        openTurn();
      }
      break;
    }
    case 'assistant': {
      openTurn();
      // An API error arrives as a synthetic assistant message; its text is the error, reported at `result`.
      if (ev.error !== undefined && ev.error !== null) break;
      const message = ev.message as Json | undefined;
      const content = Array.isArray(message?.content) ? (message.content as Json[]) : [];
      for (const block of content) {
        if (block.type === 'text' && typeof block.text === 'string' && block.text !== '')
          out.push({ type: 'local_text', text: block.text });
        else if (block.type === 'tool_use' && typeof block.name === 'string')
          out.push({ type: 'tool_call', name: block.name });
      }
      break;
    }
    case 'result': {
      const interrupted = state.interruptRequested;
      state.interruptRequested = false;
      openTurn();
      state.turnOpen = false;
      if (ev.is_error === true && !interrupted)
        out.push({ type: 'turn_ended', outcome: 'failed', error: resultErrorDetail(ev) });
      else out.push({ type: 'turn_ended', outcome: interrupted ? 'interrupted' : 'completed', error: null });
      break;
    }
    default:
      break;
  }
  return out;
}
