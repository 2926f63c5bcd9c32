/**
 * issue 40 item 9: one rule for a wake's short id — what the inspector shows (`wk_` or
 * `wk_recovery_` left out, the first 8 characters) and what the CLI accepts in place of the whole
 * token (a prefix of that body, or of the token, at least MIN_WAKE_PREFIX characters long).
 */
const WAKE_PREFIX = /^wk_(recovery_)?/;
const SHORT_LENGTH = 8;
/** Shorter than this a prefix is refused: it would too easily name another wake than meant. */
export const MIN_WAKE_PREFIX = 4;

/** The body of a wake token without its `wk_` / `wk_recovery_` head. */
const bodyOf = (token: string): string => token.replace(WAKE_PREFIX, '');

/** The short id the UI shows for a wake (the inspector's heading, "Continued in wake …"). */
export const shortWakeId = (token: string): string => bodyOf(token).slice(0, SHORT_LENGTH);

export type WakeIdMatch =
  | { readonly kind: 'one'; readonly token: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'too_short' }
  | { readonly kind: 'ambiguous'; readonly tokens: readonly string[] };

/**
 * The wake among `tokens` that `id` names: the whole token, or a prefix (at least MIN_WAKE_PREFIX
 * characters) of its body or of the token itself — so the UI's short id works. Case is kept: tokens
 * are lower-case UUIDs, and an id in another case names nothing rather than a guess.
 */
export function matchWakeId(id: string, tokens: Iterable<string>): WakeIdMatch {
  const all = [...new Set(tokens)];
  if (all.includes(id)) return { kind: 'one', token: id };
  if (bodyOf(id).length < MIN_WAKE_PREFIX) return { kind: 'too_short' };
  const matches = all.filter((t) => t.startsWith(id) || bodyOf(t).startsWith(id));
  if (matches.length === 0) return { kind: 'none' };
  if (matches.length > 1) return { kind: 'ambiguous', tokens: matches };
  return { kind: 'one', token: matches[0] as string };
}
