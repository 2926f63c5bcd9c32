/** issue 41: one rule for showing an agent's text to a person (UI, Telegram, notifications, terminal). */
import { describe, expect, it } from 'vitest';
import { displayText } from '../../../shared/display-text.js';

describe('displayText', () => {
  it('shows bidi overrides, isolates and marks as their codes, so a line reads as it runs', () => {
    expect(displayText('rm -rf ~ #\u202etxt.doc')).toBe('rm -rf ~ #\\u{202e}txt.doc');
    expect(displayText('a\u2066b\u2067c\u2068d\u2069e\u202af\u202bg\u202ch\u202di\u200ej\u200fk\u061cl')).toBe(
      'a\\u{2066}b\\u{2067}c\\u{2068}d\\u{2069}e\\u{202a}f\\u{202b}g\\u{202c}h\\u{202d}i\\u{200e}j\\u{200f}k\\u{61c}l',
    );
  });

  it('shows C0 and C1 controls and DEL as codes; keeps line breaks and tabs for a command or a diff', () => {
    expect(displayText('echo hi\rrm -rf /\x1b[2K\x07\x00\x7f\x85\x9b')).toBe(
      'echo hi\\x0drm -rf /\\x1b[2K\\x07\\x00\\x7f\\x85\\x9b',
    );
    expect(displayText('--- a\r\n+b\n\tc')).toBe('--- a\n+b\n\tc');
  });

  it('one-line: a line break is a space and a tab a code (a terminal listing)', () => {
    expect(displayText('a\nb\r\nc\td', 'one-line')).toBe('a b c\\x09d');
  });

  it('leaves every other character alone (letters, CJK, emoji, zero-width joiners in emoji)', () => {
    const text = 'npm test — 你好 👩‍💻 é <b>';
    expect(displayText(text)).toBe(text);
  });
});
