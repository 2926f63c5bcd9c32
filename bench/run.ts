/**
 * `npm run bench -- NAME [args]`: runs `bench/NAME.bench.ts`, one benchmark with its raw baseline
 * in the same process run. Its last output line is one JSON object
 * {"bench","value","baseline","ratio","unit",...} with ratio = value/baseline oriented so that
 * higher is better (DESIGN.md "Benchmarks"). Run with --expose-gc (the npm script does).
 *
 * `npm run bench -- all [--quick]`: every benchmark in turn (each with `--quick` when given, the
 * small sizes CI uses), one JSON line each, then bench/RESULTS.md (or RESULTS.quick.md in quick
 * mode, so a CI smoke run never overwrites measured figures): per figure its value, baseline,
 * ratio, goal and whether it is met, and the machine (CPU, cores, load average, Node).
 * A benchmark that throws is reported as failed and the run exits 1 after the others ran.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const names = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();
const name = process.argv[2];
const rest = process.argv.slice(3);

type Result = Record<string, unknown>;

async function runOne(bench: string, args: string[]): Promise<Result> {
  const mod = (await import(pathToFileURL(join(here, `${bench}.bench.ts`)).href)) as {
    default: (args: string[]) => Promise<Result>;
  };
  return { bench, ...(await mod.default(args)) };
}

if (name === 'all') {
  const quick = rest.includes('--quick') || process.env.BENCH_QUICK === '1';
  const loadBefore = loadavg();
  const results: Result[] = [];
  let failed = 0;
  for (const bench of names) {
    const t0 = performance.now();
    console.error(`\n=== bench ${bench}${quick ? ' --quick' : ''}`);
    try {
      const r = await runOne(bench, quick ? ['--quick'] : []);
      // The load while it ran: these machines are shared, and a figure is read against it.
      results.push({
        ...r,
        seconds: Math.round((performance.now() - t0) / 100) / 10,
        loadAtEnd: loadavg().map((x) => Math.round(x * 100) / 100),
      });
      console.log(JSON.stringify(r));
    } catch (err) {
      failed += 1;
      results.push({ bench, error: err instanceof Error ? err.message : String(err) });
      console.error(`bench ${bench} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }
  const file = join(here, quick ? 'RESULTS.quick.md' : 'RESULTS.md');
  writeFileSync(file, renderResults(results, quick, loadBefore));
  console.error(`\nwrote ${file}`);
  console.log(JSON.stringify({ bench: 'all', benchmarks: names.length, failed, quick, results: file }));
  process.exitCode = failed > 0 ? 1 : 0;
} else if (name !== undefined && names.includes(name)) {
  console.log(JSON.stringify(await runOne(name, rest)));
} else {
  console.error(`bench: unknown benchmark "${name ?? ''}"; one of: all, ${names.join(', ') || '(none yet)'}`);
  process.exit(2);
}

interface Figure {
  name: string;
  value: number | null;
  unit: string;
  baseline?: number | null;
  ratio?: number | null;
  goal?: string;
  met?: boolean;
  note?: string;
}

function cell(x: unknown): string {
  return x === undefined || x === null || (typeof x === 'number' && Number.isNaN(x))
    ? '—'
    : String(x).replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function renderResults(results: Result[], quick: boolean, loadBefore: number[]): string {
  const c = cpus();
  const lines = [
    `# Benchmark results${quick ? ' (quick mode: small sizes, a smoke run, not figures to quote)' : ''}`,
    '',
    `Written by \`npm run bench -- all${quick ? ' --quick' : ''}\` on ${new Date().toISOString()}.`,
    '',
    `Machine: ${c[0]?.model ?? 'unknown'}, ${c.length} cores, Node ${process.version}; load average ` +
      `${loadBefore.map((x) => x.toFixed(2)).join(' / ')} at the start, ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' / ')} at the end (1/5/15 min).`,
    '',
    'Every figure is measured against its raw baseline in the same run, so the ratio (oriented so that',
    'higher is better) says more than the absolute figure when the machine is shared and loaded.',
    'Where a goal is not met, bench/PROFILES.md has the profile that shows where the time goes and',
    'the change that would meet it.',
    '',
    '| benchmark | figure | value | baseline | ratio | goal | met |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    if (r.error !== undefined) {
      lines.push(`| ${r.bench} | **failed** | — | — | — | — | ✗ ${cell(r.error)} |`);
      continue;
    }
    const figures = (r.figures as Figure[] | undefined) ?? [];
    // Every benchmark lists its figures (issue 19); the headline is the fallback for one that does not.
    if (figures.length === 0)
      lines.push(
        `| ${r.bench} | headline (${cell(r.unit)}) | ${cell(r.value)} | ${cell(r.baseline)} | ${cell(r.ratio)} | ${cell(r.goal)} | |`,
      );
    for (const f of figures) {
      lines.push(
        `| ${r.bench} | ${cell(f.name)} | ${cell(f.value)} ${f.value === null ? '' : cell(f.unit)} | ${cell(f.baseline)} | ${cell(f.ratio)} | ${cell(f.goal)} | ${f.met === undefined ? '' : f.met ? '✓' : '✗'} |`,
      );
    }
  }
  lines.push('', '## Runs', '', '| benchmark | seconds | load average at its end (1/5/15 min) |', '|---|---|---|');
  for (const r of results)
    lines.push(`| ${r.bench} | ${cell(r.seconds)} | ${Array.isArray(r.loadAtEnd) ? r.loadAtEnd.join(' / ') : '—'} |`);
  lines.push('', '## Notes per figure', '');
  for (const r of results)
    for (const f of (r.figures as Figure[] | undefined) ?? [])
      if (f.note !== undefined) lines.push(`- **${r.bench}: ${f.name}**: ${f.note}`);
  lines.push('', '## Raw output', '', '```json');
  for (const r of results) lines.push(JSON.stringify({ ...r, figures: undefined }));
  lines.push('```', '');
  return lines.join('\n');
}
