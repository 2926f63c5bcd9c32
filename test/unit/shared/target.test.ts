import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatTarget,
  parentOf,
  parseTarget,
  targetFromKey,
  targetKey,
  threadParent,
  TARGET_MAX_LENGTH,
  type Target,
  type TargetErrorCode,
} from '../../../shared/target.js';

const ERROR_CODES: readonly TargetErrorCode[] = [
  'target_empty',
  'target_too_long',
  'target_unknown_form',
  'target_bad_channel',
  'target_bad_member',
  'target_bad_thread',
];

function key(text: string): string {
  const r = parseTarget(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse: ${r.error.message}`);
  return r.key;
}

function error(text: string): { code: TargetErrorCode; message: string } {
  const r = parseTarget(text);
  if (r.ok) throw new Error(`expected ${JSON.stringify(text)} to be rejected, got ${r.key}`);
  return r.error;
}

describe('parseTarget: the four forms', () => {
  it.each([
    ['#general', '#general', { kind: 'channel', channel: 'general', thread: null }],
    ['#general:ab12', '#general:ab12', { kind: 'channel', channel: 'general', thread: 'ab12' }],
    ['dm:@claude', 'dm:@claude', { kind: 'dm', member: 'claude', thread: null }],
    ['dm:@claude:x9y8z7', 'dm:@claude:x9y8z7', { kind: 'dm', member: 'claude', thread: 'x9y8z7' }],
    // Canonicalisation: case and surrounding whitespace, never anything else.
    ['  #General  ', '#general', { kind: 'channel', channel: 'general', thread: null }],
    ['#BUILD-ops:AbCd', '#build-ops:abcd', { kind: 'channel', channel: 'build-ops', thread: 'abcd' }],
    ['DM:@Claude', 'dm:@claude', { kind: 'dm', member: 'claude', thread: null }],
    ['Dm:@Codex.Bot:ZZ99', 'dm:@codex.bot:zz99', { kind: 'dm', member: 'codex.bot', thread: 'zz99' }],
    ['\t#a\n', '#a', { kind: 'channel', channel: 'a', thread: null }],
    ['#0_x', '#0_x', { kind: 'channel', channel: '0_x', thread: null }],
    [
      `#${'a'.repeat(64)}:${'b'.repeat(32)}`,
      `#${'a'.repeat(64)}:${'b'.repeat(32)}`,
      { kind: 'channel', channel: 'a'.repeat(64), thread: 'b'.repeat(32) },
    ],
  ])('%j → %s', (input, canonical, target) => {
    const r = parseTarget(input);
    expect(r).toEqual({ ok: true, key: canonical, target });
  });

  it('keeps a thread distinct from its parent, for channels and DMs', () => {
    expect(key('#general:ab12')).not.toBe(key('#general'));
    expect(key('dm:@claude:ab12')).not.toBe(key('dm:@claude'));
    const t = parseTarget('#general:ab12');
    expect(t.ok && formatTarget(parentOf(t.target))).toBe('#general');
    const d = parseTarget('dm:@claude:ab12');
    expect(d.ok && formatTarget(parentOf(d.target))).toBe('dm:@claude');
    const c = parseTarget('#general');
    expect(c.ok && parentOf(c.target)).toEqual(c.ok && c.target);
  });
});

describe('threadParent: the conversation a thread belongs to', () => {
  it.each([
    ['#general:ab12', '#general'],
    ['dm:@claude:x9y8z7', 'dm:@claude'],
    // Canonical, whatever the thread was written as.
    [' #Build-Ops:AbCd ', '#build-ops'],
  ])('%j → %s', (thread, parent) => {
    expect(threadParent(thread)).toBe(parent);
  });

  it('is null for a conversation that is not a thread, and for text that is not a target', () => {
    for (const text of ['#general', 'dm:@claude', '', 'general:ab12', '#general:', '#a:b:c'])
      expect(threadParent(text)).toBeNull();
  });
});

describe('parseTarget: rejections with stable codes and messages that say what is wrong', () => {
  it.each<[string, TargetErrorCode, RegExp]>([
    ['', 'target_empty', /empty/],
    ['   ', 'target_empty', /empty/],
    [`#${'a'.repeat(TARGET_MAX_LENGTH)}`, 'target_too_long', /at most 200/],
    ['general', 'target_unknown_form', /a channel is written "#general"/],
    ['@claude', 'target_unknown_form', /a direct message is written "dm:@claude"/],
    ['dm:claude', 'target_unknown_form', /a direct message is written "dm:@claude"/],
    ['dm@claude', 'target_unknown_form', /not a target/],
    ['!!', 'target_unknown_form', /use "#channel"/],
    ['srv_12ab', 'target_unknown_form', /not a target/],
    ['#', 'target_bad_channel', /no channel name after "#"/],
    ['#:ab12', 'target_bad_channel', /no channel name/],
    ['# general', 'target_bad_channel', /not a channel name/],
    ['#-general', 'target_bad_channel', /starting with a letter or digit/],
    ['#gen eral', 'target_bad_channel', /not a channel name/],
    ['#général', 'target_bad_channel', /not a channel name/],
    ['#\u212Aey', 'target_bad_channel', /not a channel name/], // Kelvin sign must not alias "#key"
    [`#${'a'.repeat(65)}`, 'target_bad_channel', /1–64/],
    ['dm:@', 'target_bad_member', /no member name after "dm:@"/],
    ['dm:@@claude', 'target_bad_member', /not a member name/],
    ['dm:@cl/aude', 'target_bad_member', /not a member name/],
    ['#general:', 'target_bad_thread', /no thread short id/],
    ['#general:ab', 'target_bad_thread', /4–32 letters and digits/],
    ['#general:ab-12', 'target_bad_thread', /not a thread short id/],
    [`#general:${'a'.repeat(33)}`, 'target_bad_thread', /not a thread short id/],
    ['#general:ab12:cd34', 'target_bad_thread', /more than one ":"/],
    ['dm:@claude:', 'target_bad_thread', /"dm:@member:shortid"/],
    ['dm:@claude:x', 'target_bad_thread', /not a thread short id/],
  ])('%j → %s', (input, code, message) => {
    const e = error(input);
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
  });

  it('quotes user input safely and boundedly in messages', () => {
    const e = error('#bad\u0000name');
    expect(e.message).toContain('\\u0000');
    expect(error(`x${'y'.repeat(150)}`).message.length).toBeLessThan(250);
  });
});

describe('targetKey / targetFromKey', () => {
  it('targetKey canonicalises trusted text and throws on a bad one (a bug)', () => {
    expect(targetKey('#General')).toBe('#general');
    expect(() => targetKey('general')).toThrow(/internal: bad target/);
  });

  it('targetFromKey reads a canonical key back and refuses a non-canonical one', () => {
    expect(targetFromKey(targetKey('dm:@a:abcd'))).toEqual({ kind: 'dm', member: 'a', thread: 'abcd' });
    expect(() => targetFromKey('#General' as ReturnType<typeof targetKey>)).toThrow(/not a canonical/);
  });
});

// ---------------------------------------------------------------- properties

const name = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,63}$/);
const shortId = fc.stringMatching(/^[a-z0-9]{4,32}$/);
const thread = fc.option(shortId, { nil: null });
const target: fc.Arbitrary<Target> = fc.oneof(
  fc.record({ kind: fc.constant('channel' as const), channel: name, thread }),
  fc.record({ kind: fc.constant('dm' as const), member: name, thread }),
);
/** Random upper-casing of ASCII letters. */
const recase = (text: string, flips: boolean[]) =>
  [...text].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join('');
const space = fc.stringMatching(/^[ \t\n]{0,3}$/);

describe('properties (fast-check)', () => {
  it('parse ∘ format is the identity on targets', () => {
    fc.assert(
      fc.property(target, (t) => {
        const r = parseTarget(formatTarget(t));
        expect(r).toEqual({ ok: true, target: t, key: formatTarget(t) });
      }),
      { numRuns: 2000 },
    );
  });

  it('format ∘ parse canonicalises any spelling of a target to the same key, keeping the thread', () => {
    fc.assert(
      fc.property(
        target,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        space,
        space,
        (t, flips, before, after) => {
          const written = `${before}${recase(formatTarget(t), flips)}${after}`;
          const r = parseTarget(written);
          expect(r.ok).toBe(true);
          if (!r.ok) return;
          expect(r.key).toBe(formatTarget(t));
          expect(r.target.thread).toBe(t.thread);
          if (t.thread !== null) expect(r.key).not.toBe(formatTarget(parentOf(t)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('on any input: never throws; a key re-parses to itself; an error has a stable code and a message', () => {
    const anyText = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.stringMatching(/^(#|dm:@|dm:|@)?[A-Za-z0-9._:@ -]{0,40}$/),
    );
    fc.assert(
      fc.property(anyText, (text) => {
        const r = parseTarget(text);
        if (r.ok) {
          expect(parseTarget(r.key)).toEqual(r);
          expect(formatTarget(r.target)).toBe(r.key);
        } else {
          expect(ERROR_CODES).toContain(r.error.code);
          expect(r.error.message.length).toBeGreaterThan(10);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
