/**
 * Maps Claude Code stream-json events onto runtime events (research/runtimes.md §3):
 * `system/init` opens a turn, `assistant` blocks become local_text counts and tool_call
 * names, `result` ends the turn (with runtime_error first when `is_error`). Pure, so it is
 * table-tested without the CLI; control messages are handled by the adapter.
 */
import { boundedDetail, textMetrics, type RuntimeEvent } from '../runtime-adapter.js';

export interface ClaudeTurnState {
  turnOpen: boolean;
  sessionId: string | null;
  /** The host asked for an interrupt: an error result is then an interruption, not a failure. */
  interruptRequested: boolean;
}

export function initialTurnState(): ClaudeTurnState {
  return { turnOpen: false, sessionId: null, interruptRequested: false };
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
  if (result !== null && result.startsWith('API Error')) parts.push(result);
  const errors = Array.isArray(ev.errors) ? ev.errors.filter((e): e is string => typeof e === 'string') : [];
  parts.push(...errors);
  return boundedDetail(parts.length > 0 ? parts.join(': ') : 'claude reported an error result');
}

export function mapClaudeEvent(state: ClaudeTurnState, ev: Json): RuntimeEvent[] {
  const out: RuntimeEvent[] = [];
  const openTurn = () => {
    if (!state.turnOpen) {
      state.turnOpen = true;
      out.push({ type: 'turn_start', sessionId: state.sessionId });
    }
  };
  switch (ev.type) {
    case 'system': {
      if (ev.subtype === 'init') {
        state.sessionId = str(ev.session_id) ?? state.sessionId;
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
          out.push({ type: 'local_text', ...textMetrics(block.text) });
        else if (block.type === 'tool_use' && typeof block.name === 'string')
          out.push({ type: 'tool_call', name: block.name });
      }
      break;
    }
    case 'result': {
      const interrupted = state.interruptRequested;
      state.interruptRequested = false;
      if (!state.turnOpen) out.push({ type: 'turn_start', sessionId: str(ev.session_id) ?? state.sessionId });
      state.turnOpen = false;
      if (ev.is_error === true && !interrupted) {
        out.push({ type: 'runtime_error', detail: resultErrorDetail(ev) });
        out.push({ type: 'turn_end', outcome: 'error' });
      } else {
        out.push({ type: 'turn_end', outcome: interrupted ? 'interrupted' : 'completed' });
      }
      break;
    }
    default:
      break;
  }
  return out;
}
