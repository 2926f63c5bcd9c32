/**
 * Conversation targets (DESIGN.md "Targets"): `#channel`, `#channel:shortid` (thread),
 * `dm:@member`, `dm:@member:shortid` (thread in a DM).
 *
 * The canonical `TargetKey` is the canonical text form itself, so it is readable in logs,
 * prompts and the store, and a thread keeps its short id: it never collapses to its parent.
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
/** Channel and member names: lower-case letters, digits, `-`, `_`, `.`; starting with a letter or digit. */
const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** Thread short ids: 4–32 lower-case letters and digits. */
const SHORT_ID = /^[a-z0-9]{4,32}$/;

function fail(code: TargetErrorCode, message: string): TargetParse {
  return { ok: false, error: { code, message } };
}

/**
 * Parses a target written by a person or a model. Whitespace around it is ignored and
 * names are case-insensitive (canonical form is lower case); anything else that does not
 * match one of the four forms is an error with a stable code and a message saying what is wrong.
 */
export function parseTarget(input: string): TargetParse {
  const text = input.trim();
  if (text.length === 0) return fail('target_empty', 'The target is empty; use "#channel", "#channel:shortid", "dm:@member" or "dm:@member:shortid".');
  if (text.length > TARGET_MAX_LENGTH) return fail('target_too_long', `The target is ${text.length} characters long; at most ${TARGET_MAX_LENGTH} are allowed.`);
  let kind: 'channel' | 'dm';
  let rest: string;
  if (text.startsWith('#')) {
    kind = 'channel';
    rest = text.slice(1);
  } else if (/^dm:@/i.test(text)) {
    kind = 'dm';
    rest = text.slice(4);
  } else {
    return fail('target_unknown_form', `"${text}" is not a target; use "#channel", "#channel:shortid", "dm:@member" or "dm:@member:shortid".`);
  }
  const parts = rest.split(':');
  if (parts.length > 2) return fail('target_bad_thread', `"${text}" has more than one ":"; a thread is written "${kind === 'channel' ? '#channel' : 'dm:@member'}:shortid".`);
  const name = (parts[0] ?? '').toLowerCase();
  const threadRaw = parts[1];
  if (!NAME.test(name)) {
    return kind === 'channel'
      ? fail('target_bad_channel', `"${parts[0] ?? ''}" is not a channel name: use 1–64 letters, digits, ".", "-" or "_", starting with a letter or digit.`)
      : fail('target_bad_member', `"${parts[0] ?? ''}" is not a member name: use 1–64 letters, digits, ".", "-" or "_", starting with a letter or digit.`);
  }
  let thread: string | null = null;
  if (threadRaw !== undefined) {
    const id = threadRaw.toLowerCase();
    if (!SHORT_ID.test(id)) return fail('target_bad_thread', `"${threadRaw}" is not a thread short id: use 4–32 letters and digits.`);
    thread = id;
  }
  const target: Target = kind === 'channel' ? { kind, channel: name, thread } : { kind, member: name, thread };
  return { ok: true, target, key: formatTarget(target) };
}

/** The canonical text of a target (its `TargetKey`). */
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

/** The parent conversation of a thread (or the target itself when it is not a thread). */
export function parentOf(target: Target): Target {
  return target.thread === null ? target : { ...target, thread: null };
}
