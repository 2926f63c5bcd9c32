/**
 * `npm run bench -- git-snapshot`: issue 41, what the hardened git runner costs a wake's
 * snapshot. The daemon's snapshot (main/daemon/git/snapshot.ts: `rev-parse` and `config --list`
 * in the repository, then `add -A` + `write-tree` in a git dir of the daemon's own, every call
 * through the hardened runner) against a raw `git add -A && git write-tree` through a copy of the
 * index (the least any snapshot that leaves the person's index alone can do), in the same run,
 * alternating, on a repository of N committed files with a few edited between rounds. value = the
 * median ms of the daemon's snapshot; baseline = the raw one's; ratio = baseline / value (higher
 * is better; 1 = no overhead). Args: `--rounds N`, `--files N`; `--quick`: 8 rounds of 200 files.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snapshotWorkTree } from '../main/daemon/git/snapshot.js';
import { isQuick, numArg, r2, type Figure } from './bench-kit.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  LC_ALL: 'C',
};

/** The raw snapshot: `git add -A && git write-tree` through a copy of the index (tree id). */
function rawSnapshot(repo: string, scratch: string): string {
  const index = join(scratch, 'index');
  copyFileSync(join(repo, '.git', 'index'), index);
  const env = { ...ENV, GIT_INDEX_FILE: index, GIT_OPTIONAL_LOCKS: '0' };
  const add = spawnSync('git', ['add', '-A', '--', '.'], { cwd: repo, env });
  if (add.status !== 0) throw new Error(`git add failed: ${String(add.stderr)}`);
  return execFileSync('git', ['write-tree'], { cwd: repo, env, encoding: 'utf8' }).trim();
}

export default async function gitSnapshotBench(args: string[]) {
  const quick = isQuick(args);
  const rounds = numArg(args, 'rounds', quick ? 8 : 30);
  const files = numArg(args, 'files', quick ? 200 : 2000);
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'agentteam-bench-git-')));
  const scratch = mkdtempSync(join(tmpdir(), 'agentteam-bench-git-raw-'));
  try {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: ENV });
    for (let i = 0; i < files; i++) {
      const dir = join(repo, `d${i % 20}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`.repeat(20));
    }
    execFileSync('git', ['add', '-A'], { cwd: repo, env: ENV });
    execFileSync('git', ['commit', '-q', '-m', 'init'], { cwd: repo, env: ENV });
    const daemon: number[] = [];
    const raw: number[] = [];
    // One warm-up of each (the daemon's global config file is written once per process).
    await snapshotWorkTree(repo);
    rawSnapshot(repo, scratch);
    for (let r = 0; r < rounds; r++) {
      // An agent's turn: a few files edited, one added.
      for (let k = 0; k < 3; k++) writeFileSync(join(repo, `d${k}`, `f${k}.txt`), `round ${r}\n`);
      writeFileSync(join(repo, `new-${r}.txt`), `new ${r}\n`);
      const order = r % 2 === 0 ? ['daemon', 'raw'] : ['raw', 'daemon'];
      const trees: Record<string, string> = {};
      for (const which of order) {
        const t0 = performance.now();
        trees[which] = which === 'daemon' ? (await snapshotWorkTree(repo)).tree : rawSnapshot(repo, scratch);
        (which === 'daemon' ? daemon : raw).push(performance.now() - t0);
      }
      // Same tree: the hardening changes how, never what.
      if (trees.daemon !== trees.raw) throw new Error(`round ${r}: trees differ (${trees.daemon} vs ${trees.raw})`);
    }
    const value = median(daemon);
    const baseline = median(raw);
    return {
      rounds,
      files,
      goal: 'the hardened snapshot costs at most 2× the raw add + write-tree (ratio ≥ 0.5)',
      figures: [
        {
          name: `hardened snapshot of ${files} files (median of ${rounds})`,
          value: r2(value),
          unit: 'ms',
          baseline: r2(baseline),
          ratio: r2(baseline / value),
          goal: 'ratio ≥ 0.5',
          met: baseline / value >= 0.5,
          note: `p-min daemon ${r2(Math.min(...daemon))} ms, raw ${r2(Math.min(...raw))} ms`,
        },
      ] satisfies Figure[],
      value: r2(value),
      baseline: r2(baseline),
      ratio: r2(baseline / value),
      unit: 'ms',
    };
  } finally {
    rmSync(repo, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}
