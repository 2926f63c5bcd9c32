/**
 * issue 40 item 9: the lines a file change adds and removes, as an approval shows them ("(+1 −0)"
 * and the diff under it). A line that stays is context (` `), never counted: a write that changes
 * nothing reads (+0 −0), not "(+2 −2)". Common head and tail first; what differs between them by
 * the longest common subsequence when it is small enough, else all of it replaced (still truthful,
 * just not minimal).
 */
export interface LineDiff {
  readonly added: number;
  readonly removed: number;
  /** Each line with its mark: ` ` kept, `-` removed, `+` added. */
  readonly lines: readonly string[];
}

/** A text as its lines; a final newline ends the last line, it does not start an empty one. */
export const textLines = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/**
 * The lines a unified diff (as Codex and OpenCode announce a change) adds and removes: its `+` and
 * `-` lines, never its `+++`/`---` file headers.
 */
export function unifiedDiffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of diff.split('\n')) {
    if (l.startsWith('+') && !l.startsWith('+++')) added += 1;
    else if (l.startsWith('-') && !l.startsWith('---')) removed += 1;
  }
  return { added, removed };
}

/** Above this many cells the middle is shown replaced whole (the table would cost too much). */
const MAX_CELLS = 1_000_000;

export function lineDiff(before: readonly string[], after: readonly string[]): LineDiff {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail += 1;
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const middle = a.length * b.length > MAX_CELLS ? replaced(a, b) : lcsLines(a, b);
  const lines = [
    ...before.slice(0, head).map((l) => ` ${l}`),
    ...middle,
    ...before.slice(before.length - tail).map((l) => ` ${l}`),
  ];
  return {
    added: lines.filter((l) => l.startsWith('+')).length,
    removed: lines.filter((l) => l.startsWith('-')).length,
    lines,
  };
}

const replaced = (a: readonly string[], b: readonly string[]): string[] => [
  ...a.map((l) => `-${l}`),
  ...b.map((l) => `+${l}`),
];

function lcsLines(a: readonly string[], b: readonly string[]): string[] {
  // at(i, j): the longest common subsequence of a[i..] and b[j..], in one flat table.
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  const at = (i: number, j: number): number => table[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * width + j] = a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(` ${a[i]}`);
      i += 1;
      j += 1;
    } else if (i < a.length && (j === b.length || at(i + 1, j) >= at(i, j + 1))) {
      // Removals before additions, as a unified diff shows them.
      out.push(`-${a[i]}`);
      i += 1;
    } else {
      out.push(`+${b[j]}`);
      j += 1;
    }
  }
  return out;
}
