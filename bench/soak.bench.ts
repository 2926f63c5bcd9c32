/**
 * `npm run bench -- soak [--quick] [--sends N] [--kills K]`: the longer kill -9 soak of issue 16 (default
 * 620 sends and 12 daemon kills, the size of the chaos run that found the defect). A real
 * `agentteam serve` child with the demo agent, operator sends over the CLI's WebSocket API,
 * `kill -9` of the daemon while wakes are in flight, a restart on the same data dir
 * (test/fixtures/kill9-soak.ts). Prints one progress line, then the JSON line:
 * value = acknowledged sends kept exactly once with every wake they caused answered or ended
 * with a reason; baseline = acknowledged sends (the ideal); ratio = value/baseline (1 = nothing
 * lost or duplicated). Also: sends, kills, recoveredWakes, recoveryWakes, lost, duplicated (goal 0 and 0).
 */
import { runKill9Soak } from '../test/fixtures/kill9-soak.js';
import { isQuick, type Figure } from './bench-kit.js';

function flag(args: readonly string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const value = i === -1 ? Number.NaN : Number(args[i + 1]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

export default async function soak(args: string[]): Promise<Record<string, unknown>> {
  // --quick: a smoke run of this bench's own code (issue 44: `npm test` runs it, its figures are not
  // quoted). The kill9-soak test already runs the CI size (200 sends, 3 kills) in the Vitest step; here
  // one kill with wakes in flight and the restart on the same data dir exercise every path.
  const quick = isQuick(args);
  const sends = flag(args, 'sends', quick ? 60 : 620);
  const kills = flag(args, 'kills', quick ? 1 : 12);
  const r = await runKill9Soak({ sends, kills, slowEvery: 7, taskMs: 150, burst: 8, settleTimeoutMs: 120_000 });
  for (const p of r.problems) console.log(`problem: ${p}`);
  console.log(
    `soak: ${r.sends} sends (${r.acked} acknowledged), ${r.kills} kills, ${r.wakes} wakes, ${r.recoveredWakes} recovered, ${r.recoveryWakes} recovery wakes (${r.recoveryAnswered} answered, ${r.recoveryFailed} failed with a reason), lost ${r.lost}, duplicated ${r.duplicated}, ${Math.round(r.ms / 1000)} s`,
  );
  const kept = Math.max(0, r.acked - r.lost - r.duplicated);
  return {
    value: kept,
    baseline: r.acked,
    ratio: r.acked === 0 ? 0 : kept / r.acked,
    unit: 'acknowledged sends kept exactly once',
    sends: r.sends,
    kills: r.kills,
    recoveredWakes: r.recoveredWakes,
    recoveryWakes: r.recoveryWakes,
    lost: r.lost,
    duplicated: r.duplicated,
    gapFree: r.gapFree,
    figures: [
      {
        name: `acknowledged sends kept exactly once across ${r.kills} kill -9 of the daemon`,
        value: kept,
        unit: 'sends',
        baseline: r.acked,
        ratio: r.acked === 0 ? 0 : Number((kept / r.acked).toFixed(4)),
        goal: 'lost 0, duplicated 0, gap-free',
        met: r.lost === 0 && r.duplicated === 0 && r.gapFree,
        note: `${r.sends} sends, ${r.wakes} wakes, ${r.recoveredWakes} recovered, ${r.recoveryWakes} recovery wakes; lost ${r.lost}, duplicated ${r.duplicated}`,
      },
    ] satisfies Figure[],
  };
}
