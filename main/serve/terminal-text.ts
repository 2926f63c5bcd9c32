/**
 * Text from agents printed on a person's terminal (`agentteam messages` in text mode): every
 * control character is shown escaped, never interpreted (issue 16: an agent could clear the
 * screen or write the clipboard with an OSC 52 sequence). C0 and C1 controls, DEL and the
 * bidirectional controls become `\xHH` / `\u{H}` (shared/display-text.ts, the same rule as the
 * UI, Telegram and notifications); a line break becomes one space so each message stays one line.
 * `--json` output is JSON-escaped already and is left as it is.
 */
import { displayText } from '../../shared/display-text.js';

export function escapeForTerminal(text: string): string {
  return displayText(text, 'one-line');
}
