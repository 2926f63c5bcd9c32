/**
 * The demo runtime against the real agentteam MCP server over HTTP (SDK client, bearer
 * token), with a recording CommunicationHandler. Time of the quiet task runs on a
 * VirtualTimeScheduler, flushed by the test: no sleeps.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualTimeScheduler } from 'rxjs';
import { startMcpServer, type AgentteamMcpServer } from '../../../main/daemon/mcp/mcp-server.js';
import { DemoRuntime, demoCommand, demoTaskMs } from '../../../main/daemon/runtime/demo/demo-runtime.js';
import { RecordingCommunicationHandler } from '../../fixtures/recording-communication-handler.js';
import { RuntimeEventRecorder } from '../../fixtures/runtime-event-recorder.js';

let mcp: AgentteamMcpServer;
let handler: RecordingCommunicationHandler;
let scheduler: VirtualTimeScheduler;
let host: { calls: number; answers: Array<string | null>; onTurnBoundary(): Promise<string | null> };
let demo: DemoRuntime;
let rec: RuntimeEventRecorder;

beforeEach(async () => {
  handler = new RecordingCommunicationHandler();
  mcp = await startMcpServer({ handler, limits: { sendsPerMinute: 60, maxMessageBytes: 32_768 } });
  scheduler = new VirtualTimeScheduler();
  host = {
    calls: 0,
    answers: [],
    async onTurnBoundary() {
      this.calls += 1;
      return this.answers.shift() ?? null;
    },
  };
  demo = new DemoRuntime({
    agentId: 'demo',
    mcp: mcp.issueToken('demo'),
    host,
    env: { DEMO_TASK_MS: '50000' },
    scheduler,
  });
  rec = new RuntimeEventRecorder(demo.events$);
  expect(await demo.start()).toEqual({ ok: true, sessionId: null, resumed: false });
});

afterEach(async () => {
  await demo.stop();
  rec.close();
  await mcp.close();
});

describe('demo runtime', () => {
  it('replies through message_send over HTTP as its own agent, labelled demo', async () => {
    await demo.deliver('@demo hi\nReply with the exact target "#general".');
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(rec.types()).toEqual(['ready', 'turn_start', 'tool_call', 'turn_end:completed']);
    expect(handler.sends).toHaveLength(1);
    expect(handler.sends[0]).toMatchObject({ agentId: 'demo', target: '#general' });
    expect(handler.sends[0]?.content).toMatch(/^\[demo\] /);
    expect(host.calls).toBe(1);
  });

  it('/slow stays quiet for DEMO_TASK_MS (so beacons show), then replies', async () => {
    await demo.deliver('@demo /slow please\nexact target "#build:ab12cd"');
    await rec.waitFor((e) => e.type === 'local_text');
    expect(handler.sends).toHaveLength(0);
    scheduler.flush();
    expect(scheduler.now()).toBe(50_000);
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(handler.sends.map((s) => s.target)).toEqual(['#build:ab12cd']);
    expect(handler.sends[0]?.content).toContain('after 50 s');
  });

  it('/local answers only locally, then replies after the final-check injected at the boundary', async () => {
    host.answers = ['Final delivery check:\n- exact target "dm:@operator" (wake message "m_4")'];
    await demo.deliver('@demo /local\nexact target "dm:@operator"');
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(rec.types(1)).toEqual([
      'turn_start',
      'local_text',
      'final_check:injected',
      'tool_call',
      'turn_end:completed',
    ]);
    expect(handler.sends.map((s) => s.target)).toEqual(['dm:@operator']);
    expect(host.calls).toBe(2);
  });

  it('/local with no final-check offered ends the turn without a reply', async () => {
    await demo.deliver('@demo /local\nexact target "#general"');
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(handler.sends).toHaveLength(0);
    expect(rec.types(1)).toEqual(['turn_start', 'local_text', 'turn_end:completed']);
  });

  it('input delivered during a turn is answered in that turn, before its boundary (issue 19: no backlog)', async () => {
    await demo.deliver('@demo /slow\nexact target "#build:ab12cd"');
    await rec.waitFor((e) => e.type === 'local_text');
    await demo.deliver('@demo hi\nexact target "#general"');
    scheduler.flush();
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(rec.types(1)).toEqual(['turn_start', 'local_text', 'tool_call', 'tool_call', 'turn_end:completed']);
    expect(handler.sends.map((s) => s.target)).toEqual(['#build:ab12cd', '#general']);
    // The boundary is asked once, when nothing is queued: no final-check for input already answered.
    expect(host.calls).toBe(1);
  });

  it('an interrupt ends a quiet task without a reply', async () => {
    await demo.deliver('/slow exact target "#general"');
    await rec.waitFor((e) => e.type === 'local_text');
    await demo.interrupt();
    expect(await rec.waitFor((e) => e.type === 'turn_end')).toMatchObject({ outcome: 'interrupted' });
    expect(handler.sends).toHaveLength(0);
  });

  it('cannot start with a wrong token: a start failure, not a throw', async () => {
    const bad = new DemoRuntime({
      agentId: 'x',
      mcp: { url: mcp.url, token: 'nope', headers: { Authorization: 'Bearer nope' } },
      host,
      env: {},
    });
    const result = await bad.start();
    expect(result.ok).toBe(false);
    expect(await bad.deliver('hi')).toMatchObject({ ok: false, code: 'not_running' });
  });

  it('reads commands, not words, and DEMO_TASK_MS from env', () => {
    expect(demoCommand('Plain text is local output only')).toBe('reply');
    expect(demoCommand('@demo /LOCAL')).toBe('local');
    expect(demoCommand('do a /slow one')).toBe('slow');
    expect(demoTaskMs({})).toBe(50_000);
    expect(demoTaskMs({ DEMO_TASK_MS: '1200' })).toBe(1200);
    expect(demoTaskMs({ DEMO_TASK_MS: 'soon' })).toBe(50_000);
  });
});
