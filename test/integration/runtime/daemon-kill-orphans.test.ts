/**
 * issue 16 "No orphans": `kill -9` of a real `agentteam serve` with a real OpenCode agent
 * running (its `opencode serve` does not exit when its stdin closes), then a restart on the same
 * data dir: no process of the killed daemon survives and exactly one `opencode serve` runs.
 * Linux (/proc) only: elsewhere the process table cannot be read the same way.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDaemon } from '../../../main/serve/daemon-client.js';
import { processTreeAlive, signalProcessTree } from '../../../main/daemon/runtime/process-tree.js';
import { runtimeProcesses } from '../../fixtures/daemon-harness.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../fixtures/fake-openai.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'main', 'serve', 'cli.ts');
const AGENT = 'oc1';

interface Serve {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

async function serve(dataDir: string): Promise<Serve> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--data-dir', dataDir, '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, HOME: join(dataDir, 'home') },
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    void exited.then(() => reject(new Error(`serve exited before listening:\n${err}`)));
    createInterface({ input: child.stdout }).on('line', (l) => {
      if (l.startsWith('AgentTeam is serving')) resolve();
    });
  });
  return { child, exited, stderr: () => err };
}

/** Until the agent's runtime is up (idle), through the daemon's API as the CLI reaches it. */
async function agentIdle(dataDir: string, s: Serve, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  const c = await connectDaemon(dataDir);
  if (!c.ok) throw new Error(c.message);
  try {
    for (;;) {
      const r = await c.client.call('agents.list', {});
      const state = r.ok ? r.value.find((a) => a.id === AGENT)?.state : undefined;
      if (state === 'idle') return;
      if (state === 'crashed' || Date.now() > deadline)
        throw new Error(`agent ${AGENT} is ${state}; daemon stderr:\n${s.stderr().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    c.client.close();
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Processes started for this data dir other than the daemon itself. */
function runtimesOf(dataDir: string, daemonPid: number): number[] {
  return (runtimeProcesses(dataDir) ?? []).map((p) => p.pid).filter((pid) => pid !== daemonPid);
}

const isOpencodeServe = (pid: number) => / serve --port \d+ --hostname 127\.0\.0\.1/.test(cmdline(pid));

let model: FakeOpenAi | null = null;
let dataDir = '';
const leftovers: number[] = [];

afterAll(async () => {
  for (const pid of leftovers) await signalProcessTree(pid, 'SIGKILL');
  await model?.close();
  if (dataDir !== '') await rm(dataDir, { recursive: true, force: true });
});

describe.skipIf(!existsSync('/proc/self/stat'))('kill -9 of the daemon leaves no runtime behind (issue 16)', () => {
  it('the restarted daemon ends the killed one’s opencode serve; exactly one runs', { timeout: 180_000 }, async () => {
    model = await startFakeOpenAi();
    dataDir = await mkdtemp(join(tmpdir(), 'agentteam-orphans-'));
    await mkdir(join(dataDir, 'home'));
    await mkdir(join(dataDir, 'work'));
    const env = { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'fake-key' };
    await writeFile(
      join(dataDir, 'agentteam.json'),
      JSON.stringify({
        agents: [{ id: AGENT, name: 'OpenCode', runtime: 'opencode', env, cwd: 'work', model: 'fake-model' }],
      }),
    );

    const first = await serve(dataDir);
    const firstPid = first.child.pid as number;
    await agentIdle(dataDir, first, 90_000);
    const before = runtimesOf(dataDir, firstPid);
    expect(before.filter(isOpencodeServe)).toHaveLength(1);
    leftovers.push(...before);

    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // The defect this guards against: opencode serve outlives its killed daemon.
    const [opencode] = before.filter(isOpencodeServe) as [number];
    expect(processTreeAlive(opencode)).toBe(true);

    const second = await serve(dataDir);
    const secondPid = second.child.pid as number;
    await agentIdle(dataDir, second, 90_000);
    expect(before.filter((pid) => processTreeAlive(pid))).toEqual([]);
    const after = runtimesOf(dataDir, secondPid);
    expect(after.filter(isOpencodeServe)).toHaveLength(1);
    expect(after.some((pid) => before.includes(pid))).toBe(false);
    expect(second.stderr()).toMatch(/ended a runtime process left by a previous daemon/);

    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(runtimesOf(dataDir, secondPid)).toEqual([]);
  });
});
