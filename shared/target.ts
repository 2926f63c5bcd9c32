/**
 * Conversation targets (DESIGN.md "Targets"): `#channel`, `#channel:shortid` (thread),
 * `dm:@member`, `dm:@member:shortid` (thread in a DM).
 *
 * The canonical `TargetKey` is the canonical text form itself, so it is readable in logs,
 * prompts and the store, and a thread keeps its short id: it never collapses to its parent
 * (contract §6.6: `#channel:shortid` and `dm:@member:shortid` survive every round trip).
 */

/** Canonical text of a target; only `parseTarget`/`formatTarget` produce one. */
export type TargetKey = string & { readonly __brand: 'TargetKey' };

export type Target =
  | { readonly kind: 'channel'; readonly channel: string; readonly thread: string | null }
  | { readonly kind: 'dm'; readonly member: string; readonly thread: string | null };

export type TargetErrorCode =
  | 'target_empty'
  | 'target_too_long'
  | 'target_unknown_form'
  | 'target_bad_channel'
  | 'target_bad_member'
  | 'target_bad_thread';

export interface TargetError {
  readonly code: TargetErrorCode;
  readonly message: string;
}

export type TargetParse =
  | { readonly ok: true; readonly target: Target; readonly key: TargetKey }
  | { readonly ok: false; readonly error: TargetError };

export const TARGET_MAX_LENGTH = 200;
/**
 * Channel and member names: letters, digits, `-`, `_`, `.`, starting with a letter or digit,
 * 1–64 long; ASCII only (checked before lower-casing, so e.g. the Kelvin sign "K" can never
 * turn into "k" and alias another name). The canonical form is lower case.
 */
const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;
/** Thread short ids: 4–32 ASCII letters and digits; canonical form lower case. */
const SHORT_ID = /^[a-z0-9]{4,32}$/i;
const FORMS = '"#channel", "#channel:shortid", "dm:@member" or "dm:@member:shortid"';

function fail(code: TargetErrorCode, message: string): TargetParse {
  return { ok: false, error: { code, message } };
}

/** Quotes a piece of user input for an error message, bounded and with control characters escaped. */
function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/**
 * Parses a target written by a person or a model. Whitespace around it is ignored and
 * names are case-insensitive (canonical form is lower case); anything else that does not
 * match one of the four forms is an error with a stable code and a message saying what is
 * wrong and how to write it.
 */
export function parseTarget(input: string): TargetParse {
  const text = input.trim();
  if (text.length === 0) return fail('target_empty', `The target is empty; use ${FORMS}.`);
  if (text.length > TARGET_MAX_LENGTH)
    return fail(
      'target_too_long',
      `The target is ${text.length} characters long; at most ${TARGET_MAX_LENGTH} are allowed.`,
    );
  let kind: 'channel' | 'dm';
  let rest: string;
  if (text.startsWith('#')) {
    kind = 'channel';
    rest = text.slice(1);
  } else if (/^dm:@/i.test(text)) {
    kind = 'dm';
    rest = text.slice(4);
  } else {
    return fail('target_unknown_form', `${quote(text)} is not a target: ${unknownFormHint(text)}`);
  }
  const parts = rest.split(':');
  const example = kind === 'channel' ? '#channel:shortid' : 'dm:@member:shortid';
  if (parts.length > 2)
    return fail('target_bad_thread', `${quote(text)} has more than one ":"; a thread is written "${example}".`);
  const rawName = parts[0] ?? '';
  const what = kind === 'channel' ? 'channel' : 'member';
  const code = kind === 'channel' ? 'target_bad_channel' : 'target_bad_member';
  if (rawName.length === 0)
    return fail(code, `${quote(text)} has no ${what} name after "${kind === 'channel' ? '#' : 'dm:@'}".`);
  if (!NAME.test(rawName))
    return fail(
      code,
      `${quote(rawName)} is not a ${what} name: use 1–64 letters, digits, ".", "-" or "_", starting with a letter or digit.`,
    );
  let thread: string | null = null;
  const rawThread = parts[1];
  if (rawThread !== undefined) {
    if (rawThread.length === 0)
      return fail(
        'target_bad_thread',
        `${quote(text)} has no thread short id after ":"; write "${example}" or leave out the ":".`,
      );
    if (!SHORT_ID.test(rawThread))
      return fail('target_bad_thread', `${quote(rawThread)} is not a thread short id: use 4–32 letters and digits.`);
    thread = rawThread.toLowerCase();
  }
  const name = rawName.toLowerCase();
  const target: Target = kind === 'channel' ? { kind, channel: name, thread } : { kind, member: name, thread };
  return { ok: true, target, key: formatTarget(target) };
}

function unknownFormHint(text: string): string {
  if (text.startsWith('@')) return `a direct message is written "dm:${text}".`;
  if (/^dm:/i.test(text)) return `a direct message is written "dm:@${text.slice(3)}".`;
  if (NAME.test(text.split(':')[0] ?? '')) return `a channel is written "#${text}"; use ${FORMS}.`;
  return `use ${FORMS}.`;
}

/**
 * The canonical text of a target (its `TargetKey`). `target` must come from `parseTarget`
 * (or `targetFromKey`); a hand-built Target is not checked here.
 */
export function formatTarget(target: Target): TargetKey {
  const base = target.kind === 'channel' ? `#${target.channel}` : `dm:@${target.member}`;
  return (target.thread === null ? base : `${base}:${target.thread}`) as TargetKey;
}

/** Parses and returns the TargetKey, throwing on bad input. For trusted internal values only. */
export function targetKey(text: string): TargetKey {
  const parsed = parseTarget(text);
  if (!parsed.ok) throw new Error(`internal: bad target ${JSON.stringify(text)}: ${parsed.error.message}`);
  return parsed.key;
}

/** The structured Target of a canonical key (e.g. one read back from the store). */
export function targetFromKey(key: TargetKey): Target {
  const parsed = parseTarget(key);
  if (!parsed.ok || parsed.key !== key) throw new Error(`internal: not a canonical TargetKey ${JSON.stringify(key)}`);
  return parsed.target;
}

/** The parent conversation of a thread (or the target itself when it is not a thread). */
export function parentOf(target: Target): Target {
  return target.thread === null ? target : { ...target, thread: null };
}

/**
 * The parent conversation of a thread target, as its TargetKey (`#dev:ab12` → `#dev`), or null
 * when `text` is not a thread (a channel, a DM) or not a target at all.
 */
export function threadParent(text: string): TargetKey | null {
  const parsed = parseTarget(text);
  return parsed.ok && parsed.target.thread !== null ? formatTarget(parentOf(parsed.target)) : null;
}
