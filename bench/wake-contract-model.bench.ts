/**
 * `npm run bench -- wake-contract-model`: the model-based test of the wake contract (issue 38,
 * test/fixtures/wake-contract-run.ts) at scale — ≥ 100,000 generated sequences of every command
 * (operator messages and hand-backs, writes, sends, reactions, turn ends and final-checks, usage
 * limits, budgets, resets, cancels, Stop, timeouts, compaction, overflow, crash, replacement, daemon
 * restart, stale events, local text) over two agents, each checked after every step against the
 * reference model. A counterexample throws (the bench fails, shrunk to its shortest sequence).
 *
 * value = sequences/s of the checked run; baseline = sequences/s of fast-check generating the same
 * number of command sequences without running them, in the same process run; ratio = value/baseline
 * (what checking every step costs over generating it). Args: `--runs N` (default 100,000; `--quick` 1,000).
 */
import { runWakeContractModel, sampleWakeContractCommands } from '../test/fixtures/wake-contract-run.js';

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

export default async function run(args: string[]): Promise<Record<string, unknown>> {
  const quick = args.includes('--quick');
  const runs = arg(args, 'runs', quick ? 1_000 : 100_000);
  const g0 = performance.now();
  const generated = sampleWakeContractCommands(runs, 38);
  const genSeconds = (performance.now() - g0) / 1000;
  const t0 = performance.now();
  // A fresh seed per run of the bench: 100,000 sequences the npm test's fixed seed never tried.
  const seed = Date.now() % 2 ** 31;
  const { sequences, commands } = runWakeContractModel({ numRuns: runs, seed });
  const seconds = (performance.now() - t0) / 1000;
  const value = sequences / seconds;
  const baseline = generated / genSeconds;
  const totalCommands = Object.values(commands).reduce((a, b) => a + b, 0);
  return {
    value: Math.round(value),
    baseline: Math.round(baseline),
    ratio: Number((value / baseline).toFixed(4)),
    unit: 'checked sequences/s (every command, two agents, reference model after every step)',
    sequences,
    seed,
    commandsRun: totalCommands,
    commandsByKind: commands,
    counterexamples: 0,
    seconds: Number(seconds.toFixed(1)),
    figures: [
      {
        name: 'wake contract model: sequences checked with no counterexample',
        value: sequences,
        unit: 'sequences',
        goal: quick ? '≥ 1,000 (quick)' : '≥ 100,000',
        met: sequences >= (quick ? 1_000 : 100_000),
        note: `seed ${seed}; ${totalCommands} commands; ${Math.round(value)} sequences/s checked vs ${Math.round(baseline)}/s generated only`,
      },
    ],
  };
}
