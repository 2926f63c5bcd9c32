/**
 * issue 30: the demo runtime off the daemon's loop. DemoThreadRuntime (the adapter the factory
 * builds) against the real agentteam MCP server over HTTP, with a recording handler: the agent
 * runs in the demo worker thread, and its replies, turn boundaries (final-checks), approvals,
 * interrupts and stop all cross the thread's port with the same adapter contract as in process.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMcpServer, type AgentteamMcpServer } from '../../../main/daemon/mcp/mcp-server.js';
import type { ApprovalAsk } from '../../../main/daemon/runtime/approval-port.js';
import { DEMO_FILE } from '../../../main/daemon/runtime/demo/demo-approve.js';
import { DEMO_WORK_TOOL } from '../../../main/daemon/runtime/demo/demo-runtime.js';
import { DemoThreadRuntime } from '../../../main/daemon/runtime/demo/demo-thread.js';
import { RecordingCommunicationHandler } from '../../fixtures/recording-communication-handler.js';
import { RuntimeEventRecorder } from '../../fixtures/runtime-event-recorder.js';

let mcp: AgentteamMcpServer;
let handler: RecordingCommunicationHandler;
let workspace: string;
const started: Array<{ demo: DemoThreadRuntime; rec: RuntimeEventRecorder }> = [];
let boundaries: Array<string | null>;
let asked: ApprovalAsk[];

async function startDemo(env: Record<string, string> = {}, agentId = 'demo') {
  const demo = new DemoThreadRuntime({
    agentId,
    mcp: mcp.issueToken(agentId),
    host: {
      onTurnBoundary: async () => boundaries.shift() ?? null,
      requestApproval: async (ask) => {
        asked.push(ask);
        return { decision: 'allow', scope: 'once', status: 'allowed', reason: null };
      },
    },
    env,
    workspace,
  });
  const rec = new RuntimeEventRecorder(demo.events$);
  started.push({ demo, rec });
  expect(await demo.start()).toEqual({ ok: true, sessionId: null, resumed: false });
  return { demo, rec };
}

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'agentteam-demo-thread-'));
  handler = new RecordingCommunicationHandler();
  mcp = await startMcpServer({ handler, limits: { sendsPerMinute: 600, maxMessageBytes: 32_768 } });
  boundaries = [];
  asked = [];
});

afterEach(async () => {
  for (const { demo, rec } of started.splice(0)) {
    await demo.stop();
    rec.close();
  }
  await mcp.close();
  await rm(workspace, { recursive: true, force: true });
});

describe('the demo runtime in its own thread (issue 30)', () => {
  it('runs the agent in the demo worker thread, not the caller’s, and replies through message_send', async () => {
    const { demo, rec } = await startDemo();
    expect(demo.threadId).not.toBeNull();
    expect(demo.threadId).not.toBe(threadId);
    expect(await demo.deliver('@demo hi\nReply with the exact target "#general".')).toEqual({ ok: true });
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(rec.types()).toEqual(['ready', 'turn_start', 'tool_call', 'usage', 'turn_end:completed']);
    expect(rec.events.every((e) => e.generation === 1)).toBe(true);
    expect(handler.sends).toMatchObject([{ agentId: 'demo', target: '#general' }]);
    expect(handler.sends[0]?.content).toMatch(/^\[demo\] /);
  });

  it('two demo agents share the one thread, each with its own token and events', async () => {
    const a = await startDemo({}, 'alpha');
    const b = await startDemo({}, 'beta');
    expect(a.demo.threadId).toBe(b.demo.threadId);
    await a.demo.deliver('@alpha hi\nexact target "#a"');
    await b.demo.deliver('@beta hi\nexact target "#b"');
    await a.rec.waitFor((e) => e.type === 'turn_end');
    await b.rec.waitFor((e) => e.type === 'turn_end');
    expect(handler.sends.map((s) => [s.agentId, s.target]).sort()).toEqual([
      ['alpha', '#a'],
      ['beta', '#b'],
    ]);
    expect(a.rec.types()).toEqual(['ready', 'turn_start', 'tool_call', 'usage', 'turn_end:completed']);
  });

  it('the turn boundary is the host’s: a final-check it returns is answered in the same turn (/local)', async () => {
    const { demo, rec } = await startDemo();
    boundaries = ['Final delivery check:\n- exact target "dm:@operator" (wake message "m_4")'];
    await demo.deliver('@demo /local\nexact target "dm:@operator"');
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(rec.types(1)).toEqual([
      'turn_start',
      'local_text',
      'final_check:injected',
      'tool_call',
      'usage',
      'turn_end:completed',
    ]);
    expect(handler.sends.map((s) => s.target)).toEqual(['dm:@operator']);
  });

  it('/approve asks the host’s approval path across the thread; allowed, the file is written', async () => {
    const { demo, rec } = await startDemo();
    await demo.deliver('@demo /approve\nexact target "#general"');
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ kind: 'file_change', tool: 'Write' });
    expect(await readFile(join(workspace, DEMO_FILE), 'utf8')).toContain('Hello from the AgentTeam demo agent.');
    expect(handler.sends[0]?.content).toContain(`Wrote ${DEMO_FILE}`);
  });

  it('DEMO_WORK_MS: works before it answers, reporting tool events at DEMO_EVENTS_PER_SECOND', async () => {
    const { demo, rec } = await startDemo({ DEMO_WORK_MS: '200', DEMO_EVENTS_PER_SECOND: '20' });
    const t0 = performance.now();
    await demo.deliver('@demo hi\nexact target "#general"');
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
    const work = rec.events.filter((e) => e.type === 'tool_call' && e.name === DEMO_WORK_TOOL);
    expect(work).toHaveLength(4);
    expect(rec.types(1)).toEqual([
      'turn_start',
      'tool_call',
      'tool_call',
      'tool_call',
      'tool_call',
      'tool_call',
      'usage',
      'turn_end:completed',
    ]);
    expect(handler.sends).toHaveLength(1);
  });

  it('an interrupt crosses the thread and ends a quiet task without a reply', async () => {
    const { demo, rec } = await startDemo({ DEMO_TASK_MS: '60000' });
    await demo.deliver('/slow exact target "#general"');
    await rec.waitFor((e) => e.type === 'local_text');
    await demo.interrupt();
    expect(await rec.waitFor((e) => e.type === 'turn_end')).toMatchObject({ outcome: 'interrupted' });
    expect(handler.sends).toHaveLength(0);
  });

  it('stop: the agent exits as expected, its events complete, and a later delivery is refused, not lost silently', async () => {
    const { demo, rec } = await startDemo();
    await demo.stop();
    expect(rec.types().at(-1)).toBe('exit');
    expect(rec.events.at(-1)).toMatchObject({ type: 'exit', expected: true });
    expect(await demo.deliver('@demo hi')).toMatchObject({ ok: false, code: 'not_running' });
    await demo.stop();
    expect(rec.events.filter((e) => e.type === 'exit')).toHaveLength(1);
  });

  it('a wrong token is a start failure reported across the thread, not a throw', async () => {
    const bad = new DemoThreadRuntime({
      agentId: 'x',
      mcp: { url: mcp.url, token: 'nope', headers: { Authorization: 'Bearer nope' } },
      host: { onTurnBoundary: async () => null },
      env: {},
      workspace,
    });
    const result = await bad.start();
    expect(result).toMatchObject({ ok: false, code: 'exited' });
    expect(result.ok ? '' : result.message).toMatch(/could not reach the agentteam MCP server/);
    await bad.stop();
  });

  it('the thread never keeps the process alive: a process whose demo agent started and stopped exits by itself', async () => {
    // A process of its own (this one has vitest's handles): the real MCP server, a demo agent
    // started and stopped, the server closed — then nothing of the thread may hold the loop open.
    const at = (rel: string) => pathToFileURL(join(process.cwd(), rel)).href;
    const script = `
      import { startMcpServer } from ${JSON.stringify(at('main/daemon/mcp/mcp-server.ts'))};
      import { DemoThreadRuntime } from ${JSON.stringify(at('main/daemon/runtime/demo/demo-thread.ts'))};
      import { RecordingCommunicationHandler } from ${JSON.stringify(at('test/fixtures/recording-communication-handler.ts'))};
      const handler = new RecordingCommunicationHandler();
      const mcp = await startMcpServer({ handler, limits: { sendsPerMinute: 60, maxMessageBytes: 32768 } });
      const demo = new DemoThreadRuntime({
        agentId: 'demo', mcp: mcp.issueToken('demo'), host: { onTurnBoundary: async () => null },
        env: {}, workspace: ${JSON.stringify(workspace)},
      });
      const started = await demo.start();
      await demo.stop();
      await mcp.close();
      console.log(JSON.stringify(started));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: process.cwd(),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // The guard only turns a hang into a failure; a clean run exits as soon as its script ends.
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) =>
      child.once('exit', (c, s) => r([c, s])),
    );
    clearTimeout(guard);
    expect(JSON.parse(out.trim().split('\n').at(-1) ?? 'null'), err).toEqual({
      ok: true,
      sessionId: null,
      resumed: false,
    });
    expect({ code, signal }, 'the process stayed alive after its demo agent stopped').toEqual({
      code: 0,
      signal: null,
    });
  }, 30_000);
});
