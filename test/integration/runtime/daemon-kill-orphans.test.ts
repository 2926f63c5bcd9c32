/**
 * issue 16 "No orphans": `kill -9` of a real `agentteam serve` with a real OpenCode agent
 * running (its `opencode serve` does not exit when its stdin closes), then a restart on the same
 * data dir: no process of the killed daemon survives and exactly one `opencode serve` runs.
 * Linux (/proc) only: elsewhere the process table cannot be read the same way.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processTreeAlive, signalProcessTree } from '../../../main/daemon/runtime/process-tree.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../fixtures/fake-openai.js';
import { agentState, cmdline, runtimesOf, serveChild, type ServeChild } from '../../fixtures/serve-child.js';

const AGENT = 'oc1';

const agentIdle = (dataDir: string, s: ServeChild, ms: number) => agentState(dataDir, s, AGENT, 'idle', ms);
const serve = serveChild;

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
    await mkdir(join(dataDir, 'workspaces', AGENT), { recursive: true });
    const env = { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'fake-key' };
    await writeFile(
      join(dataDir, 'agentteam.json'),
      JSON.stringify({
        agents: [
          { id: AGENT, name: 'OpenCode', runtime: 'opencode', env, cwd: `workspaces/${AGENT}`, model: 'fake-model' },
        ],
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
