/**
 * The demo runtime against the real agentteam MCP server over HTTP (SDK client, bearer
 * token), with a recording CommunicationHandler. Time of the quiet task runs on a
 * VirtualTimeScheduler, flushed by the test: no sleeps.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualTimeScheduler } from 'rxjs';
import type { ApprovalAnswer, ApprovalAsk } from '../../../main/daemon/runtime/approval-port.js';
import { startMcpServer, type AgentteamMcpServer } from '../../../main/daemon/mcp/mcp-server.js';
import {
  DEMO_CHARS_PER_TOKEN,
  DemoRuntime,
  demoCommand,
  demoTaskMs,
} from '../../../main/daemon/runtime/demo/demo-runtime.js';
import { RecordingCommunicationHandler } from '../../fixtures/recording-communication-handler.js';
import { RuntimeEventRecorder } from '../../fixtures/runtime-event-recorder.js';

let mcp: AgentteamMcpServer;
let handler: RecordingCommunicationHandler;
let scheduler: VirtualTimeScheduler;
let host: {
  calls: number;
  answers: Array<string | null>;
  onTurnBoundary(): Promise<string | null>;
  requestApproval?: (ask: ApprovalAsk) => Promise<ApprovalAnswer>;
};
let workspace: string;
let demo: DemoRuntime;
let rec: RuntimeEventRecorder;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'agentteam-demo-ws-'));
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
    workspace,
    scheduler,
  });
  rec = new RuntimeEventRecorder(demo.events$);
  expect(await demo.start()).toEqual({ ok: true, sessionId: null, resumed: false });
});

afterEach(async () => {
  await demo.stop();
  rec.close();
  await mcp.close();
  await rm(workspace, { recursive: true, force: true });
});

describe('demo runtime', () => {
  it('replies through message_send over HTTP as its own agent, labelled demo', async () => {
    await demo.deliver('@demo hi\nReply with the exact target "#general".');
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(rec.types()).toEqual(['ready', 'turn_start', 'tool_call', 'usage', 'turn_end:completed']);
    expect(handler.sends).toHaveLength(1);
    expect(handler.sends[0]).toMatchObject({ agentId: 'demo', target: '#general' });
    expect(handler.sends[0]?.content).toMatch(/^\[demo\] /);
    expect(host.calls).toBe(1);
  });

  it("reports a demo's usage per turn: a token per 4 characters read and written, nothing cached, no cost (issue 27)", async () => {
    const input = '@demo hi\nReply with the exact target "#general".';
    await demo.deliver(input);
    const usage = await rec.waitFor((e) => e.type === 'usage');
    const written = handler.sends.reduce((n, s) => n + s.content.length, 0);
    expect(written).toBeGreaterThan(0);
    expect(usage).toMatchObject({
      type: 'usage',
      usage: {
        inputTokens: Math.ceil(input.length / DEMO_CHARS_PER_TOKEN),
        outputTokens: Math.ceil(written / DEMO_CHARS_PER_TOKEN),
        cachedTokens: 0,
        costUsd: null,
      },
    });
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
      'usage',
      'turn_end:completed',
    ]);
    expect(handler.sends.map((s) => s.target)).toEqual(['dm:@operator']);
    expect(host.calls).toBe(2);
  });

  it('/local with no final-check offered ends the turn without a reply', async () => {
    await demo.deliver('@demo /local\nexact target "#general"');
    await rec.waitFor((e) => e.type === 'turn_end');
    expect(handler.sends).toHaveLength(0);
    expect(rec.types(1)).toEqual(['turn_start', 'local_text', 'usage', 'turn_end:completed']);
  });

  it('input delivered during a turn is answered in that turn, before its boundary (issue 19: no backlog)', async () => {
    await demo.deliver('@demo /slow\nexact target "#build:ab12cd"');
    await rec.waitFor((e) => e.type === 'local_text');
    await demo.deliver('@demo hi\nexact target "#general"');
    scheduler.flush();
    await rec.waitFor((e) => e.type === 'turn_end');
    // issue 41: the usage so far is reported before the long task, the rest at the turn's end.
    expect(rec.types(1)).toEqual([
      'turn_start',
      'local_text',
      'usage',
      'tool_call',
      'tool_call',
      'usage',
      'turn_end:completed',
    ]);
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
      workspace,
    });
    const result = await bad.start();
    expect(result.ok).toBe(false);
    expect(await bad.deliver('hi')).toMatchObject({ ok: false, code: 'not_running' });
  });

  it('reads commands, not words, and DEMO_TASK_MS from env', () => {
    expect(demoCommand('Plain text is local output only')).toBe('reply');
    expect(demoCommand('@demo /LOCAL')).toBe('local');
    expect(demoCommand('do a /slow one')).toBe('slow');
    expect(demoCommand('@demo /approve')).toBe('approve');
    expect(demoCommand('please approve')).toBe('reply');
    // issue 24: `/cross <target>` needs its target
    expect(demoCommand('@demo /cross #ops')).toBe('cross');
    expect(demoCommand('@demo /cross')).toBe('reply');
    expect(demoCommand('@demo /cross\n</agentteam-message>')).toBe('reply');
    expect(demoCommand('/cross dm:@claude')).toBe('cross');
    expect(demoCommand('go across')).toBe('reply');
    expect(demoTaskMs({})).toBe(50_000);
    expect(demoTaskMs({ DEMO_TASK_MS: '1200' })).toBe(1200);
    expect(demoTaskMs({ DEMO_TASK_MS: 'soon' })).toBe(50_000);
  });

  describe('/approve asks the host (the approval path of every runtime) before writing', () => {
    /** A host that records the question and answers it when the test says so. */
    function answering(): { asks: ApprovalAsk[]; answer(a: ApprovalAnswer): void } {
      const asks: ApprovalAsk[] = [];
      let resolve: ((a: ApprovalAnswer) => void) | null = null;
      host.requestApproval = (ask) => {
        asks.push(ask);
        return new Promise((r) => (resolve = r));
      };
      return {
        asks,
        answer: (a) => {
          expect(resolve).not.toBeNull();
          resolve?.(a);
        },
      };
    }
    const file = () => join(workspace, 'agentteam-demo.txt');

    it('allow: the request shows the path with line counts and the diff; the file is written, then the reply', async () => {
      const h = answering();
      await demo.deliver('@demo /approve\nexact target "#general"');
      await rec.waitFor((e) => e.type === 'tool_call');
      await expect.poll(() => h.asks.length).toBe(1);
      expect(h.asks[0]).toEqual({
        kind: 'file_change',
        tool: 'Write',
        summary: `${file()} (+2 −0)`,
        detail: `${file()}\n+Hello from the AgentTeam demo agent.\n+You allowed this write: an agent changes your files only with your approval.`,
        rule: `Write(${file()})`,
      });
      // Nothing is written before the answer.
      await expect(readFile(file(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
      expect(handler.sends).toHaveLength(0);
      h.answer({ decision: 'allow', scope: 'once', status: 'allowed', reason: null });
      await rec.waitFor((e) => e.type === 'turn_end');
      expect(await readFile(file(), 'utf8')).toBe(
        'Hello from the AgentTeam demo agent.\nYou allowed this write: an agent changes your files only with your approval.\n',
      );
      expect(handler.sends.map((s) => s.content)).toEqual([
        `[demo] Wrote agentteam-demo.txt in ${workspace} after you allowed it.`,
      ]);
      expect(rec.types(1)).toEqual(['turn_start', 'tool_call', 'tool_call', 'usage', 'turn_end:completed']);
    });

    it('a second request to write the same text counts no line (issue 40 item 9: not "(+2 −2)")', async () => {
      const h = answering();
      await demo.deliver('/approve exact target "#general"');
      await expect.poll(() => h.asks.length).toBe(1);
      h.answer({ decision: 'allow', scope: 'once', status: 'allowed', reason: null });
      await rec.waitFor((e) => e.type === 'turn_end');
      await demo.deliver('/approve exact target "#general"');
      await expect.poll(() => h.asks.length).toBe(2);
      expect(h.asks[1]?.summary).toBe(`${file()} (+0 −0)`);
      expect(h.asks[1]?.detail.split('\n').map((l) => l[0])).toEqual(['/', ' ', ' ']);
      h.answer({ decision: 'deny', scope: 'once', status: 'denied', reason: null });
    });

    it('deny: nothing is written; the reply says it was denied, with the reason', async () => {
      const h = answering();
      await demo.deliver('@demo /approve\nexact target "dm:@operator"');
      await expect.poll(() => h.asks.length).toBe(1);
      h.answer({ decision: 'deny', scope: 'once', status: 'denied', reason: 'not in this folder' });
      await rec.waitFor((e) => e.type === 'turn_end');
      await expect(readFile(file(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
      expect(handler.sends.map((s) => s.content)).toEqual([
        '[demo] Nothing was written: the request to write agentteam-demo.txt was denied. Reason: not in this folder',
      ]);
    });

    it('expiry: nothing is written; the reply says nobody answered in time', async () => {
      const h = answering();
      await demo.deliver('/approve exact target "#general"');
      await expect.poll(() => h.asks.length).toBe(1);
      h.answer({
        decision: 'deny',
        scope: 'once',
        status: 'expired',
        reason: 'No answer from the operator within 900 s',
      });
      await rec.waitFor((e) => e.type === 'turn_end');
      await expect(readFile(file(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
      expect(handler.sends[0]?.content).toContain('nobody answered the request to write agentteam-demo.txt in time');
    });

    it('with no host to ask, the demo is denied with a reason it reports (never writes unasked)', async () => {
      await demo.deliver('/approve exact target "#general"');
      await rec.waitFor((e) => e.type === 'turn_end');
      await expect(readFile(file(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
      expect(handler.sends[0]?.content).toContain('no operator connected');
    });

    it('an interrupt while waiting ends the turn interrupted, with no write and no reply', async () => {
      const h = answering();
      await demo.deliver('/approve exact target "#general"');
      await expect.poll(() => h.asks.length).toBe(1);
      await demo.interrupt();
      expect(await rec.waitFor((e) => e.type === 'turn_end')).toMatchObject({ outcome: 'interrupted' });
      h.answer({ decision: 'allow', scope: 'once', status: 'allowed', reason: null });
      await expect(readFile(file(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
      expect(handler.sends).toHaveLength(0);
    });
  });
});
