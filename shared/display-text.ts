/**
 * Text an agent wrote, made safe to show a person (issue 16 for the terminal; issue 41 for the
 * approval in the UI, Telegram and OS notifications): what an approval *says* must be what it
 * *runs*. Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the invisible
 * direction marks (U+200E, U+200F, U+061C) can make `rm -rf ~ #‮txt.doc` read as something harmless;
 * C0 and C1 controls and DEL can hide or rewrite text (a carriage return, an escape sequence).
 * Each is shown as its code (`\x1b`, `\u{202e}`), never applied; everything else is untouched.
 */
/** The bidi controls and the C1 range and DEL; the C0 range is added per mode (built from a string: no control character in a regex literal). */
const BIDI_AND_C1 = '\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const CONTROLS_AND_BIDI = new RegExp(`[\\u0000-\\u001f${BIDI_AND_C1}]`, 'gu');
/** The same but line feed and tab (U+0009, U+000A). */
const CONTROLS_AND_BIDI_BUT_LINES = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${BIDI_AND_C1}]`, 'gu');

function shown(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/**
 * `lines`: line breaks (`\n`, and `\r\n` as one) and tabs stay, for a command or a diff shown on
 * several lines; `one-line`: a line break becomes one space and a tab is shown as its code
 * (a terminal listing: one item per line).
 */
export function displayText(text: string, mode: 'lines' | 'one-line' = 'lines'): string {
  if (mode === 'one-line') return text.replace(/\r\n|\n/g, ' ').replace(CONTROLS_AND_BIDI, shown);
  return text.replace(/\r\n/g, '\n').replace(CONTROLS_AND_BIDI_BUT_LINES, shown);
}
