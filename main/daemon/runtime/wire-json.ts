/** Reading fields of a runtime's untyped JSON wire messages without throwing. */

/** The value at `path`, or undefined when any step is missing or not an object. */
export function get(obj: unknown, ...path: string[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
