/**
 * `npm run bench -- line-reader`: issue 29 "Bounded input everywhere". One line of 2, 4 and 8 MiB
 * of runtime stdout in 64 KiB chunks through the shared line reader (main/daemon/runtime/line-reader.ts)
 * and through the old Claude Code parser's `buffer += chunk; buffer.split('\n')` (the baseline: it
 * took 104/258/1,122 ms here, quadratic). value = ms per MiB for the reader at 8 MiB; the figure
 * is met when doubling the line at most ~doubles its time (ms per MiB at 8 MiB ≤ 2 × at 2 MiB).
 * Args: `--rounds N`; `--quick` runs 1 and 2 MiB only.
 */
import { LineReader } from '../main/daemon/runtime/line-reader.js';
import { isQuick, numArg, r2, type Figure } from './bench-kit.js';

const CHUNK = 64 * 1024;

function chunksOf(mib: number): string[] {
  const line = 'z'.repeat(mib * 1024 * 1024);
  const out: string[] = [];
  for (let i = 0; i < line.length; i += CHUNK) out.push(line.slice(i, i + CHUNK));
  out.push('\n');
  return out;
}

function timeMs(run: () => void): number {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

/** The old parser (stream-json-parser.ts before issue 29). */
function oldSplit(chunks: readonly string[]): number {
  let buffer = '';
  let lines = 0;
  for (const chunk of chunks) {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines += parts.length;
  }
  return lines;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export default async function lineReaderBench(args: string[]) {
  const quick = isQuick(args);
  const rounds = numArg(args, 'rounds', quick ? 1 : 3);
  const sizes = quick ? [1, 2] : [2, 4, 8];
  const rows = sizes.map((mib) => {
    const chunks = chunksOf(mib);
    const reader: number[] = [];
    const old: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const lr = new LineReader();
      reader.push(timeMs(() => chunks.forEach((c) => lr.push(c))));
      old.push(timeMs(() => void oldSplit(chunks)));
    }
    return { mib, readerMs: median(reader), oldMs: median(old) };
  });
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const perMiB = (ms: number, mib: number) => ms / mib;
  const linear = perMiB(last.readerMs, last.mib) <= 2 * perMiB(first.readerMs, first.mib) + 1;
  return {
    rounds,
    goal: 'linear: ms per MiB at the largest line ≤ 2 × at the smallest (+1 ms)',
    rows: rows.map((r) => ({ mib: r.mib, readerMs: r2(r.readerMs), oldSplitMs: r2(r.oldMs) })),
    figures: [
      {
        name: `line reader, one ${last.mib} MiB line in 64 KiB chunks`,
        value: r2(perMiB(last.readerMs, last.mib)),
        unit: 'ms/MiB',
        baseline: r2(perMiB(last.oldMs, last.mib)),
        ratio: r2(last.oldMs / Math.max(last.readerMs, 0.001)),
        goal: 'linear',
        met: linear,
        note: rows.map((r) => `${r.mib} MiB: ${r2(r.readerMs)} ms (old ${r2(r.oldMs)} ms)`).join('; '),
      },
    ] satisfies Figure[],
  };
}
