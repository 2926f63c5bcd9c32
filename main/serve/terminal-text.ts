/**
 * Text from agents printed on a person's terminal (`agentteam messages` in text mode): every
 * control character is shown escaped, never interpreted (issue 16: an agent could clear the
 * screen or write the clipboard with an OSC 52 sequence). C0 and C1 controls, DEL and the
 * bidirectional overrides (which can reorder what a line appears to say) become `\xHH` /
 * `\u{H}`; a line break becomes one space so each message stays one line. `--json` output
 * is JSON-escaped already and is left as it is.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function escapeForTerminal(text: string): string {
  return text.replace(/\r\n|\n/g, ' ').replace(UNSAFE, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}
