/**
 * Checks on the structured values a prompt interpolates (message ids, targets, sequences).
 * Prompts quote these verbatim, so each must be what it claims to be: a message id can never
 * smuggle prose into a prompt (contract §6.4: a final-check never carries runtime text).
 * A failed check is a bug in the caller, so it throws.
 */
import { parseTarget, type TargetKey } from '../../../shared/target.js';

/** Ids the store and the daemon mint: letters, digits, `_ - . :`, at most 128 characters. */
const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

export function checkedId(id: string, what: string): string {
  if (!ID.test(id)) throw new Error(`internal: ${what} ${JSON.stringify(id.slice(0, 40))} is not an id`);
  return id;
}

export function checkedSeq(seq: number, what: string): number {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new Error(`internal: ${what} ${seq} is not a TargetSeq`);
  return seq;
}

/** A TargetKey must already be canonical: a thread keeps its short id and never collapses. */
export function checkedTarget(target: TargetKey): TargetKey {
  const parsed = parseTarget(target);
  if (!parsed.ok || parsed.key !== target)
    throw new Error(`internal: ${JSON.stringify(String(target).slice(0, 40))} is not a canonical TargetKey`);
  return target;
}

/** Text safe inside a double-quoted attribute of an envelope tag. */
export function attr(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\r\n\t]+/g, ' ');
}
