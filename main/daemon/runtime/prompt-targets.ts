/**
 * Finds the exact targets a delivery or final-check names (contract §8.2–8.3: they render
 * `exact target "<target>"`). Used by in-process runtimes that act on prompts (the demo).
 */
import { parseTarget, type TargetKey } from '../../../shared/target.js';

const QUOTED = /target\s*"([^"]{1,200})"/gi;
const BARE =
  /(?:^|[\s(])(#[a-z0-9][a-z0-9._-]{0,63}(?::[a-z0-9]{4,32})?|dm:@[a-z0-9][a-z0-9._-]{0,63}(?::[a-z0-9]{4,32})?)/gi;

/** Every valid `target "X"` in order, without duplicates; else the first bare target-looking word; else none. */
export function exactTargets(text: string): TargetKey[] {
  const keys: TargetKey[] = [];
  for (const m of text.matchAll(QUOTED)) {
    const parsed = parseTarget(m[1] ?? '');
    if (parsed.ok && !keys.includes(parsed.key)) keys.push(parsed.key);
  }
  if (keys.length > 0) return keys;
  for (const m of text.matchAll(BARE)) {
    const parsed = parseTarget(m[1] ?? '');
    if (parsed.ok) return [parsed.key];
  }
  return [];
}
