/**
 * issue 42 "Readiness that costs no full CLI each time": a readiness probe runs the CLI itself
 * (`claude auth status` ≈ 282 MB, `opencode auth list` ≈ 145 MB), so its answer is kept — in
 * memory and in `<runtime dir>/readiness-probe.json`, across daemon starts — and asked again only
 * when what it depends on changed: the files of the agent's runtime dir (its HOME and config
 * dirs, where the person's credential files are linked), the person's own credential folders,
 * and the agent's entry (command, env, sign-in mode). A changed file is seen by `stat` alone
 * (mtime and size, symlinks followed to the person's files); the credential is never read.
 * The operator's Retry (`fresh`) always asks the CLI. issue 43: an agent on another host is never
 * answered from here — its readiness is its connection and the CLI there, which no file on this
 * machine tells (a host down at one check answers again at the next).
 *
 * At most `PROBES_AT_ONCE` CLIs are asked at a time, the others wait their turn: a first start of
 * 20 agents ran 20 status commands at once (7 × `claude auth status` alone ≈ 2 GB), and on the
 * shared 2-core machine each outlived its 15 s timeout, which reads as "not signed in" — every
 * Claude Code agent of the agents-at-rest bench stayed down (bench/PROFILES.md "Agents at rest").
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AgentConfig } from '../../../shared/config.js';
import type { PersonProfile } from './auth/person-profile.js';
import { personClaudeConfigDir } from './claude-code/claude-auth.js';
import type { ReadinessProbe } from './cli-probe.js';
import { personCodexAuthFile } from './codex/codex-auth.js';
import { personOpencodeAuthFile } from './opencode/opencode-auth.js';
import { runtimeDirOf } from './runtime-home.js';

const FILE = 'readiness-probe.json';
/** CLI probes running at once (each is a whole CLI: `claude auth status` ≈ 282 MB); the rest queue. */
export const PROBES_AT_ONCE = 2;
/** How deep the runtime dir is looked at (credential and config files sit within 3 levels of its HOME). */
const DEPTH = 4;
/** No walk is unbounded: a runtime dir with more entries than this counts only the first ones. */
const MAX_ENTRIES = 2000;
/** What a runtime writes as it works (sessions, logs, caches): never a sign-in, and often large. */
const SKIPPED = new Set([
  'sessions',
  'log',
  'logs',
  'cache',
  'projects',
  'snapshot',
  'storage',
  'shell-snapshots',
  'todos',
]);

export interface ProbeCacheOptions {
  readonly dataDir: string;
  readonly person?: PersonProfile;
  /** The real probe (it runs the CLI). */
  readonly probe: (agent: AgentConfig) => Promise<ReadinessProbe>;
}

interface Kept {
  readonly key: string;
  readonly probe: ReadinessProbe;
}

export class ProbeCache {
  readonly #o: ProbeCacheOptions;
  readonly #kept = new Map<string, Kept>();
  #running = 0;
  readonly #queued: Array<() => void> = [];
  #closed = false;

  constructor(options: ProbeCacheOptions) {
    this.#o = options;
  }

  /** The agent's readiness: the kept answer while nothing it depends on changed (or `fresh`), else the CLI's. */
  async probe(agent: AgentConfig, fresh = false): Promise<ReadinessProbe> {
    if (agent.host !== undefined) return this.#o.probe(agent);
    const kept = this.#kept.get(agent.id) ?? this.#load(agent.id);
    if (!fresh && kept !== null && kept.key === this.fingerprint(agent)) return kept.probe;
    const probe = await this.#inTurn(() => this.#o.probe(agent));
    // A check the CLI did not answer in time is no answer to keep (cli-probe.ts `provisional`), and a
    // daemon that has stopped writes nothing more into its data dir.
    if (probe.provisional === true || this.#closed) return probe;
    // Taken after the probe: what the CLI itself wrote while it answered is part of the answer's state.
    const next = { key: this.fingerprint(agent), probe };
    this.#kept.set(agent.id, next);
    this.#save(agent.id, next);
    return probe;
  }

  /**
   * The daemon stops: a probe still running then keeps nothing (issue 44: a fresh clone's test saw
   * `readiness-probe.json` written into a runtime dir after the daemon had stopped and its data dir
   * was being removed). The CLI it runs ends at its own timeout.
   */
  close(): void {
    this.#closed = true;
  }

  /** What the kept answer depends on, as one hash. */
  fingerprint(agent: AgentConfig): string {
    const hash = createHash('sha256');
    hash.update(JSON.stringify([agent.runtime, agent.preset ?? null, agent.command, agent.auth, agent.env, agent.cwd]));
    hash.update(process.env.PATH ?? '');
    const seen = { n: 0 };
    walk(runtimeDirOf(this.#o.dataDir, agent.id), DEPTH, hash, seen);
    for (const dir of personDirs(this.#o.person)) walk(dir, 2, hash, seen);
    return hash.digest('hex');
  }

  /** Runs `ask` once fewer than `PROBES_AT_ONCE` probes run (first come, first asked). */
  async #inTurn<T>(ask: () => Promise<T>): Promise<T> {
    if (this.#running >= PROBES_AT_ONCE) await new Promise<void>((turn) => this.#queued.push(turn));
    else this.#running += 1;
    try {
      return await ask();
    } finally {
      // The turn passes to the next in line (the count stays), else one fewer runs.
      const next = this.#queued.shift();
      if (next === undefined) this.#running -= 1;
      else next();
    }
  }

  #load(agentId: string): Kept | null {
    try {
      const kept = JSON.parse(readFileSync(join(runtimeDirOf(this.#o.dataDir, agentId), FILE), 'utf8')) as Kept;
      return typeof kept.key === 'string' && typeof kept.probe?.outcome === 'string' ? kept : null;
    } catch {
      return null;
    }
  }

  #save(agentId: string, kept: Kept): void {
    const dir = runtimeDirOf(this.#o.dataDir, agentId);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(join(dir, FILE), JSON.stringify(kept), { mode: 0o600 });
    } catch {
      // Not kept on disk: the next start asks the CLI again (nothing is lost).
    }
  }
}

/** The person's own credential folders (the links in the runtime dir point there; Claude reads them directly). */
function personDirs(person: PersonProfile | undefined): string[] {
  if (person === undefined) return [];
  return [
    personClaudeConfigDir(person),
    dirname(personCodexAuthFile(person)),
    dirname(personOpencodeAuthFile(person)),
    join(person.env.XDG_CONFIG_HOME || join(person.home, '.config'), 'opencode'),
  ];
}

/** Adds each entry's name, size and mtime (symlinks followed) below `dir`, in name order. */
function walk(dir: string, depth: number, hash: ReturnType<typeof createHash>, seen: { n: number }): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    hash.update(`\0${dir}:absent`);
    return;
  }
  for (const name of names) {
    if (name === FILE || SKIPPED.has(name) || seen.n >= MAX_ENTRIES) continue;
    seen.n += 1;
    const path = join(dir, name);
    try {
      const st = statSync(path);
      hash.update(`\0${path}:${st.size}:${st.mtimeMs}`);
      if (st.isDirectory() && depth > 1) walk(path, depth - 1, hash, seen);
    } catch {
      hash.update(`\0${path}:dangling`);
    }
  }
}
