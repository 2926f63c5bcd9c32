/**
 * Browser e2e fixture: the real `agentteam serve` (bin/agentteam.mjs → the built CLI and the
 * assembled daemon) on a fresh data dir and a free port, opened in Debian Chromium.
 *
 * - `config` (option): written to `<data-dir>/agentteam.json` before the first start; when
 *   null, the daemon seeds its first-run config itself.
 * - `serve`: the running server: its URL (with the token), data dir, and a `cli()` helper
 *   that runs `agentteam <subcommand> --data-dir <dir>` against it.
 * - `app`: the page opened at the printed URL, waiting until the status area exists.
 * - `serveScope` (option, issue 44): 'test' (the default) starts a daemon per test; 'file' lets the
 *   tests of one file that ask for it share one daemon per config — only for tests that read, or
 *   that use their own conversation or agent, so no test sees another's state. Tests of a restart,
 *   a first run or a sign-in keep 'test'. A shared daemon stops when the worker moves on to another
 *   file (or ends), with the same clean-exit check.
 * - A 'test'-scoped daemon whose config repeats the previous test's is started ahead, while that
 *   test runs (SpareServes): still a fresh daemon of the test's own, off the critical path.
 * Teardown sends SIGTERM and waits for a clean exit (graceful shutdown is part of the contract).
 */
import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { TELEGRAM_CHANNEL } from '../../shared/config.js';

export const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'agentteam.mjs');

export interface ServeHandle {
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  /** issue 29: this start's operator key; issue 41: from <data-dir>/operator-key (serve prints it only to a terminal). */
  readonly operatorKey: string;
  readonly dataDir: string;
  readonly stderr: () => string;
  /** Runs `agentteam <args...> --data-dir <dataDir>` as the operator (the CLI reads <data-dir>/operator-key); resolves with exit code and output. */
  cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

type Fixtures = {
  config: Record<string, unknown> | null;
  serveEnv: Record<string, string>;
  serveScope: 'test' | 'file';
  /** issue 44: starts the next test's spare daemon (SpareServes); `app` calls it once its page has loaded. */
  serveAhead: { start: () => void };
  serve: ServeHandle;
  app: Page;
};

type WorkerFixtures = {
  /** issue 44: the daemons shared by the tests of the current file (serveScope 'file'). */
  sharedServes: SharedServes;
  /** issue 44: the next test's own daemon, started while the current test runs (serveScope 'test'). */
  spareServes: SpareServes;
};

/** A running `agentteam serve`: its handle, and its stop (SIGTERM; resolves with the exit code). */
interface Served {
  readonly handle: ServeHandle;
  stop(): Promise<number | null>;
}

function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

async function waitForUrl(child: ChildProcessWithoutNullStreams, stderr: () => string): Promise<string> {
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`agentteam serve exited (${code}) before printing its URL:\n${stderr()}`));
    child.once('exit', onExit);
    lines.on('line', (line) => {
      // issue 41: stdout is no terminal here, so the URL comes without the operator key.
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w%-]+)$/.exec(line);
      if (m?.[1] === undefined) return;
      child.off('exit', onExit);
      resolve(m[1]);
    });
  });
}

/**
 * The daemons this worker started that have not exited. A worker that ends without its teardown
 * (a test past its timeout, the worker then stopped) would leave them running on the shared
 * machine with nobody to stop them; on the worker's exit they are killed.
 */
const running = new Set<ChildProcessWithoutNullStreams>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `agentteam serve` on a fresh data dir (with `config` as its agentteam.json unless null) and a free port. */
async function startServe(config: Record<string, unknown> | null, serveEnv: Record<string, string>): Promise<Served> {
  const dataDir = await mkdtemp(join(tmpdir(), 'agentteam-e2e-'));
  const home = join(dataDir, 'home');
  await mkdir(home);
  if (config !== null) await writeFile(join(dataDir, 'agentteam.json'), JSON.stringify(config, null, 2));
  // Runtime CLIs get an empty HOME so nothing from the machine leaks in (or out).
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...serveEnv };
  const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', '0'], { cwd: ROOT, env });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const bare = await waitForUrl(child, () => err);
  // issue 41: the operator key is in <data-dir>/operator-key (as `agentteam url` reads it).
  const operatorKey = (await readFile(join(dataDir, 'operator-key'), 'utf8')).trim();
  const url = `${bare}#operator=${encodeURIComponent(operatorKey)}`;
  const parsed = new URL(url);
  const handle: ServeHandle = {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    operatorKey,
    dataDir,
    stderr: () => err,
    cli: (...args) => runNode([BIN, ...args, '--data-dir', dataDir], env),
  };
  return {
    handle,
    stop: async () => {
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      const code = await exited;
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

async function expectCleanStop(served: Served, whose: string): Promise<void> {
  const code = await served.stop();
  expect(code, `agentteam serve${whose} should exit cleanly on SIGTERM; stderr:\n${served.handle.stderr()}`).toBe(0);
}

/** The daemons of one file's 'file'-scoped tests, one per config (and serveEnv). */
class SharedServes {
  #file: string | null = null;
  readonly #served = new Map<string, Promise<Served>>();

  /** The running daemon for this file and config, started on first use. */
  async take(file: string, config: Record<string, unknown> | null, serveEnv: Record<string, string>) {
    await this.leave(file);
    this.#file = file;
    const key = JSON.stringify([config, serveEnv]);
    let served = this.#served.get(key);
    if (served === undefined) {
      served = startServe(config, serveEnv);
      this.#served.set(key, served);
      // A start that failed is not kept: the next test starts its own and reports its own failure.
      served.catch(() => this.#served.delete(key));
    }
    return (await served).handle;
  }

  /** Stops the shared daemons unless they belong to `file` (null: stops them all). */
  async leave(file: string | null): Promise<void> {
    if (this.#file === null || this.#file === file) return;
    const all = [...this.#served.values()];
    const left = this.#file;
    this.#served.clear();
    this.#file = null;
    for (const served of await Promise.allSettled(all))
      if (served.status === 'fulfilled') await expectCleanStop(served.value, ` (shared by the tests of ${left})`);
  }
}

/**
 * issue 44: a 'test'-scoped daemon is still the test's own, fresh one, but its start (2-4 s of module
 * load and migrations, most of a short test) need not wait on the test's critical path. When a test's
 * config is one an earlier test of this worker had (the tests of one describe block, or demoConfig()
 * in many files), a spare daemon with that config is started while the test runs, and the next test
 * with that config takes it: a fresh data dir that no test has touched, only started earlier. A
 * config that never repeats (one built per test, e.g. around a fake model server's port) never gets
 * a spare, so no start is wasted on it; spares are kept for the last two configs, and one that gives
 * way (or is left at the end) is stopped with the same clean-exit check. A spare sees the machine as
 * it was when it started: a file whose hooks reset state outside the data dir before each test (a
 * workspace path the config names, as cannot-start.e2e.ts does) must get no spare: a config of its
 * own (cannot-start's names a path unique to the run) in at most two tests, or one built per test.
 * Nor does a config with a Telegram channel: a spare would poll the chat too (two pollers of one bot).
 */
class SpareServes {
  /** How many configs keep a spare at once: two, as a file alternates between two describe blocks'
   * configs (team.e2e.ts: teamConfig() and teamConfig(1) per language) without stopping either spare. */
  static readonly KEPT = 2;
  readonly #seen = new Set<string>();
  /** The spares, oldest first, one per config. */
  readonly #spares = new Map<string, Promise<Served>>();

  /** A fresh daemon for this config: the spare if one was started for it, else one started now. */
  async take(
    config: Record<string, unknown> | null,
    serveEnv: Record<string, string>,
  ): Promise<{ served: Served; warm: boolean; ahead: () => void }> {
    const key = JSON.stringify([config, serveEnv]);
    const spare = this.#spares.get(key);
    this.#spares.delete(key);
    // A spare that failed to start is not the test's failure: the test starts its own below and
    // reports that start's own error.
    const taken = spare === undefined ? null : await spare.catch(() => null);
    // A config with a Telegram channel gets no spare: the spare's poller would run beside the test's
    // daemon (a second poller of the same fake bot takes the chat's updates from the test's own).
    // Every other `channels` key is only a channel's watchdog and delivery settings (shared/config.ts
    // ChannelsSchema), nothing that connects anywhere: demoConfig()'s `local` keeps its spare.
    const repeated = this.#seen.has(key) && !hasPolledChannel(config);
    this.#seen.add(key);
    if (repeated) {
      // The oldest spare gives way (stopped with the clean-exit check) to this config's next one.
      while (this.#spares.size >= SpareServes.KEPT) {
        const [oldest, served] = this.#spares.entries().next().value as [string, Promise<Served>];
        this.#spares.delete(oldest);
        await stopSpare(served);
      }
    }
    const served = taken ?? (await startServe(config, serveEnv));
    // The next test's spare starts when `ahead` is called (once): after this test's page has loaded,
    // not beside that load. On two cores under load, a daemon's start (module load, migrations) beside
    // the page's parse of the renderer only moved the wait into the page load (measured: 8-13 s page
    // loads beside a spare's start against 3-5 s without, at load 17).
    let started = !repeated;
    const ahead = () => {
      if (started) return;
      started = true;
      const next = startServe(config, serveEnv);
      next.catch(() => undefined); // observed by the test that takes it (or by stopSpare)
      this.#spares.set(key, next);
    };
    return { served, warm: taken !== null, ahead };
  }

  /** Stops the spares no test took. */
  async end(): Promise<void> {
    const spares = [...this.#spares.values()];
    this.#spares.clear();
    for (const served of spares) await stopSpare(served);
  }
}

/** Whether the config has a channel that polls an outside service (Telegram), which only one daemon may do. */
function hasPolledChannel(config: Record<string, unknown> | null): boolean {
  const channels = config?.channels as Record<string, unknown> | undefined;
  return channels?.[TELEGRAM_CHANNEL] !== undefined;
}

async function stopSpare(served: Promise<Served>): Promise<void> {
  const started = await served.catch(() => null);
  if (started !== null) await expectCleanStop(started, ' (a spare started for the next test, not taken)');
}

/** A span for the report's annotations: `2.3 s`. */
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const test = base.extend<Fixtures, WorkerFixtures>({
  config: [null, { option: true }],
  serveEnv: [{}, { option: true }],
  serveScope: ['test', { option: true }],
  sharedServes: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern; there are none
    async ({}, use) => {
      const shared = new SharedServes();
      await use(shared);
      await shared.leave(null);
    },
    { scope: 'worker' },
  ],
  spareServes: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern; there are none
    async ({}, use) => {
      const spares = new SpareServes();
      await use(spares);
      await spares.end();
    },
    { scope: 'worker' },
  ],
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern; there are none
  serveAhead: async ({}, use) => use({ start: () => undefined }),
  serve: async ({ config, serveEnv, serveScope, sharedServes, spareServes, serveAhead }, use, info) => {
    if (serveScope === 'file') {
      await spareServes.end();
      await use(await sharedServes.take(info.file, config, serveEnv));
      return;
    }
    // A test of its own daemon: the shared ones of an earlier file are not left running beside it.
    await sharedServes.leave(info.file);
    const t0 = Date.now();
    const { served, warm, ahead } = await spareServes.take(config, serveEnv);
    serveAhead.start = ahead;
    // Where the time goes (issue 44): the wait for this test's daemon, in the report.
    info.annotations.push({
      type: 'serve',
      description: `${warm ? 'spare taken' : 'started'}, ${seconds(Date.now() - t0)}`,
    });
    await use(served.handle);
    ahead(); // a test without the page (CLI only) starts the next spare here
    const stopping = Date.now();
    await expectCleanStop(served, '');
    info.annotations.push({ type: 'stop', description: seconds(Date.now() - stopping) });
  },
  app: async ({ page, serve, serveAhead }, use, info) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Where the time goes (issue 44): the page's load up to its status area, in the report.
    const loading = Date.now();
    await page.goto(serve.url);
    await expect(page.getByRole('status', { name: /Agent status|智能体状态/ })).toBeAttached();
    info.annotations.push({ type: 'page', description: seconds(Date.now() - loading) });
    serveAhead.start();
    await use(page);
    expect(errors, 'no uncaught errors in the page').toEqual([]);
  },
});
export { expect };

/** Saves a screenshot as a test attachment and under test-results/screens/ for the report. */
export async function screenshot(page: Page, info: TestInfo, name: string): Promise<void> {
  const dir = join(ROOT, 'test-results', 'screens');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path });
  await info.attach(name, { path, contentType: 'image/png' });
}

/** The one status area of the open conversation. */
export const statusArea = (page: Page) => page.getByRole('status', { name: /Agent status|智能体状态/ });

/** Sends a message with the keyboard only: focus the composer, type, Enter. */
export async function sendFromComposer(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: /^Message |^发送到 / });
  await box.focus();
  await page.keyboard.type(text);
  // The agents arrive after the page's first paint: until they have, "@demo" matches no agent, the
  // composer names it as unknown and holds the first Enter (issue 40 item 2). This helper sends on one
  // Enter, so it waits until the composer names no unknown mention (a test of the hold types itself).
  await expect(box.locator('xpath=ancestor::form').locator('.composer-warning')).toBeEmpty();
  await page.keyboard.press('Escape'); // close any mention list so Enter sends
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('');
}

/** Copy that would speak for the agent or imply it should have replied (contract §10.3, §7.3). */
export const FORBIDDEN_NO_REPLY_COPY =
  /fail|did not|didn't|no reply|not reply|unanswered|should have|未回复|没有回复|失败/i;

/** A demo-agent config with a short watchdog so beacons happen within a test. */
export function demoConfig(
  extra: { demoTaskMs?: number; thresholdSeconds?: number; maxBeacons?: number; agents?: unknown[] } = {},
): Record<string, unknown> {
  return {
    agents: [
      { id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_TASK_MS: String(extra.demoTaskMs ?? 3500) } },
      ...(extra.agents ?? []),
    ],
    channels: {
      local: {
        silenceWatchdog: {
          thresholdSeconds: extra.thresholdSeconds ?? 1,
          ...(extra.maxBeacons === undefined ? {} : { maxBeacons: extra.maxBeacons }),
        },
      },
    },
  };
}

/** Runs axe on the page as it is; fails on any serious or critical violation (issue 8). */
export async function expectNoSeriousAxeViolations(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${label}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
