/**
 * The Claude Code adapter against the real `claude` CLI (node_modules/.bin/claude), the
 * scripted fake Anthropic API and our MCP server with a recording CommunicationHandler.
 * Every adapter gets its own temp runtime dir (HOME, CLAUDE_CONFIG_DIR) and cwd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMcpServer, type AgentteamMcpServer } from '../../../main/daemon/mcp/mcp-server.js';
import { ClaudeCodeAdapter } from '../../../main/daemon/runtime/claude-code/claude-code-adapter.js';
import { CLAUDE_SEND_TOOL } from '../../../main/daemon/runtime/claude-code/claude-launch.js';
import { memorySessionStore, type RuntimeSessionStore } from '../../../main/daemon/runtime/runtime-session-store.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic.js';
import { RecordingCommunicationHandler } from '../../fixtures/recording-communication-handler.js';
import { RuntimeEventRecorder } from '../../fixtures/runtime-event-recorder.js';

const projectRoot = resolve(import.meta.dirname, '../../..');
const FINAL_CHECK =
  'Final delivery check:\nThese wakes are about to finish without confirmed replies:\n- exact target "#general" (wake message "m_9")';

let fake: FakeAnthropic;
let mcp: AgentteamMcpServer;
let handler: RecordingCommunicationHandler;
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-claude-'));
  dirs.push(dir);
  return dir;
}

/** A host whose boundary answers are scripted per call. */
class ScriptedHost {
  calls = 0;
  answers: Array<string | null> = [];
  async onTurnBoundary(): Promise<string | null> {
    this.calls += 1;
    return this.answers.shift() ?? null;
  }
}

/** Resolves once Claude has written the session's transcript (it flushes it after the `result` line). */
async function transcriptWritten(runtimeDir: string, sessionId: string, timeoutMs = 20_000): Promise<void> {
  const projects = join(runtimeDir, 'claude-config', 'projects');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found =
      existsSync(projects) &&
      readdirSync(projects).some((d) => {
        const file = join(projects, d, `${sessionId}.jsonl`);
        return existsSync(file) && readFileSync(file, 'utf8').includes('"type":"assistant"');
      });
    if (found) return;
    if (Date.now() > deadline) throw new Error(`no transcript for session ${sessionId} under ${projects}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function makeAdapter(
  agentId: string,
  host: ScriptedHost,
  store: RuntimeSessionStore,
  fingerprint = 'fp-1',
  runtimeDir = tempDir(),
) {
  return new ClaudeCodeAdapter({
    agentId,
    command: null,
    args: [],
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'test-key', CLAUDE_CODE_MAX_RETRIES: '0' },
    model: null,
    cwd: tempDir(),
    mcp: mcp.issueToken(agentId),
    runtimeDir,
    projectRoot,
    threadContractFingerprint: fingerprint,
    sessionStore: store,
    host,
    processEnv: { PATH: process.env.PATH },
    restartPolicy: { baseDelayMs: 50, maxDelayMs: 200, maxRestarts: 2, windowMs: 60_000 },
  });
}

beforeAll(async () => {
  fake = await startFakeAnthropic();
  handler = new RecordingCommunicationHandler();
  mcp = await startMcpServer({ handler, limits: { sendsPerMinute: 60, maxMessageBytes: 32_768 } });
});

afterAll(async () => {
  await mcp.close();
  await fake.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('Claude Code adapter with the real CLI (one session, several turns)', () => {
  const host = new ScriptedHost();
  const store = memorySessionStore();
  let adapter: ClaudeCodeAdapter;
  let rec: RuntimeEventRecorder;

  beforeAll(async () => {
    adapter = makeAdapter('claude-a', host, store);
    rec = new RuntimeEventRecorder(adapter.events$);
    const started = await adapter.start();
    expect(started).toMatchObject({ ok: true, resumed: false });
  }, 60_000);

  afterAll(async () => {
    await adapter.stop();
    rec.close();
  });

  it('reply via tool: the MCP server records message_send from this agent; events are turn_start, local_text, tool_call, turn_end', async () => {
    const from = rec.mark;
    expect(await adapter.deliver('Reply in exact target "#general". [[tool]]')).toEqual({ ok: true });
    await rec.waitFor((e) => e.type === 'turn_end', from);
    expect(handler.sends.filter((s) => s.agentId === 'claude-a').map((s) => s.target)).toEqual(['#general']);
    // issue 27: Claude Code's `result` carries the turn's usage, reported just before the turn ends.
    expect(rec.types(from)).toEqual([
      'turn_start',
      'local_text',
      'tool_call',
      'local_text',
      'usage',
      'turn_end:completed',
    ]);
    expect(rec.events.slice(from).find((e) => e.type === 'tool_call')).toMatchObject({ name: CLAUDE_SEND_TOOL });
    expect(host.calls).toBe(1);
    expect(store.load()?.fingerprint).toBe('fp-1');
  });

  it('local text only, then the final-check goes into the same turn through the Stop hook and the model replies via the tool', async () => {
    const from = rec.mark;
    const sendsBefore = handler.sends.length;
    const requestsBefore = fake.requests.length;
    host.answers = [FINAL_CHECK, null];
    await adapter.deliver('Answer in "#general". [[local]]');
    await rec.waitFor((e) => e.type === 'turn_end', from);
    expect(rec.types(from)).toEqual([
      'turn_start',
      'local_text',
      'final_check:injected',
      'local_text',
      'tool_call',
      'local_text',
      'usage',
      'turn_end:completed',
    ]);
    expect(rec.events.slice(from).find((e) => e.type === 'final_check')).toMatchObject({ via: 'stop_hook' });
    expect(handler.sends.slice(sendsBefore).map((s) => [s.target, s.content])).toEqual([
      ['#general', 'Answer after the final check (fake model).'],
    ]);
    // The final-check reached the model in the same session: its request carries the earlier turns too.
    const check = fake.requests.slice(requestsBefore).find((r) => r.reply?.script === 'final_check');
    expect(check?.input).toContain('Final delivery check');
    expect((check?.body.messages as unknown[]).length).toBeGreaterThan(4);
    expect(host.calls).toBe(3);
  });

  it('an API 400 becomes runtime_error with its detail and turn_end error; no boundary is asked', async () => {
    const from = rec.mark;
    const callsBefore = host.calls;
    await adapter.deliver('[[error400]]');
    await rec.waitFor((e) => e.type === 'turn_end', from);
    expect(rec.types(from)).toEqual(['turn_start', 'usage', 'runtime_error', 'turn_end:error']);
    const error = rec.events.slice(from).find((e) => e.type === 'runtime_error');
    expect(error?.type === 'runtime_error' && error.detail).toMatch(/api_error_status 400.*API Error: 400/);
    expect(host.calls).toBe(callsBefore);
  });

  it('a slow quiet turn ([[slow:N:MS]]) streams nothing visible for N×MS, then replies', async () => {
    const from = rec.mark;
    const started = Date.now();
    await adapter.deliver('[[slow:3:300]] [[tool]] exact target "#build"');
    await rec.waitFor((e) => e.type === 'turn_end', from);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(handler.sends.at(-1)).toMatchObject({ agentId: 'claude-a', target: '#build' });
  });

  it('interrupt during a slow turn ends it as interrupted, not as a runtime error', async () => {
    const from = rec.mark;
    const sendsBefore = handler.sends.length;
    const callsBefore = host.calls;
    await adapter.deliver('[[slow:30:500]] [[tool]] exact target "#general"');
    await rec.waitFor((e) => e.type === 'turn_start', from);
    await adapter.interrupt();
    expect(await rec.waitFor((e) => e.type === 'turn_end', from)).toMatchObject({ outcome: 'interrupted' });
    expect(rec.types(from)).not.toContain('runtime_error');
    expect(handler.sends.length).toBe(sendsBefore);
    expect(host.calls).toBe(callsBefore);
  });

  it('local text is reported as counts only, never as text', async () => {
    const from = rec.mark;
    await adapter.deliver('[[secret:TOPSECRET-4711]]');
    await rec.waitFor((e) => e.type === 'turn_end', from);
    const local = rec.events.slice(from).find((e) => e.type === 'local_text');
    expect(local).toMatchObject({ bytes: 14, runes: 14 });
    expect(JSON.stringify(rec.events)).not.toContain('TOPSECRET');
  });
});

describe('Claude Code adapter process supervision (real CLI)', () => {
  it('a killed process reports exit, restarts with backoff and resumes the same session (fingerprint matches)', async () => {
    const host = new ScriptedHost();
    const store = memorySessionStore();
    const runtimeDir = tempDir();
    const adapter = makeAdapter('claude-b', host, store, 'fp-1', runtimeDir);
    const rec = new RuntimeEventRecorder(adapter.events$);
    try {
      expect((await adapter.start()).ok).toBe(true);
      await adapter.deliver('[[tool]] in "#general"');
      await rec.waitFor((e) => e.type === 'turn_end');
      const sessionId = store.load()?.sessionId;
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      // Kill only once the session is on disk: a kill before the flush leaves nothing to resume
      // (that path — a fresh session — has its own test).
      await transcriptWritten(runtimeDir, sessionId ?? '');
      const pid = adapter.pid ?? 0;
      const from = rec.mark;
      process.kill(pid, 'SIGKILL');
      const exit = await rec.waitFor((e) => e.type === 'exit', from);
      expect(exit).toMatchObject({ type: 'exit', signal: 'SIGKILL', expected: false, generation: 1 });
      expect(await rec.waitFor((e) => e.type === 'restart_scheduled', from)).toMatchObject({ attempt: 1, delayMs: 50 });
      expect(await rec.waitFor((e) => e.type === 'ready', from)).toMatchObject({ generation: 2, resumed: true });
      const turn = rec.mark;
      const requestsBefore = fake.requests.length;
      expect(await adapter.deliver('[[tool]] again in "#general"')).toEqual({ ok: true });
      await rec.waitFor((e) => e.type === 'turn_end', turn);
      // Resumed, not fresh: the model sees the turn from before the crash.
      const resumedRequest = fake.requests.slice(requestsBefore).find((r) => r.reply?.script === 'tool');
      expect(JSON.stringify(resumedRequest?.body.messages)).toContain('[[tool]] in \\"#general\\"');
      expect(rec.events.slice(turn).every((e) => e.generation === 2)).toBe(true);
      expect(store.load()?.sessionId).toBe(sessionId);
      expect(handler.sends.filter((s) => s.agentId === 'claude-b')).toHaveLength(2);
      const stopped = rec.mark;
      await adapter.stop();
      expect(rec.events.slice(stopped)).toEqual([
        { type: 'exit', code: 0, signal: null, expected: true, generation: 2 },
      ]);
      expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      await adapter.stop();
      rec.close();
    }
  }, 90_000);

  it('a stored session is not resumed when the thread-contract fingerprint differs, and a stale one falls back to a fresh session', async () => {
    const host = new ScriptedHost();
    const mismatched = memorySessionStore({ sessionId: '3cd031a7-ff27-45ad-a0e5-9dea6e0ebe7a', fingerprint: 'old' });
    const a = makeAdapter('claude-c', host, mismatched, 'new');
    try {
      expect(await a.start()).toMatchObject({ ok: true, resumed: false });
    } finally {
      await a.stop();
    }
    const stale = memorySessionStore({ sessionId: '3cd031a7-ff27-45ad-a0e5-9dea6e0ebe7a', fingerprint: 'fp-1' });
    const b = makeAdapter('claude-d', host, stale);
    try {
      expect(await b.start()).toMatchObject({ ok: true, resumed: false });
      expect(stale.load()).toBeNull();
    } finally {
      await b.stop();
    }
  }, 90_000);

  it('a missing command is a start failure with an actionable message, not a throw', async () => {
    const adapter = new ClaudeCodeAdapter({
      agentId: 'ghost',
      command: join(tempDir(), 'no-such-claude'),
      args: [],
      env: {},
      model: null,
      cwd: tempDir(),
      mcp: mcp.issueToken('ghost'),
      runtimeDir: tempDir(),
      projectRoot,
      threadContractFingerprint: 'x',
      sessionStore: memorySessionStore(),
      host: new ScriptedHost(),
      processEnv: {},
    });
    const result = await adapter.start();
    expect(result).toMatchObject({ ok: false, code: 'spawn_failed' });
    expect(!result.ok && result.message).toMatch(/Set "command" of agent "ghost"/);
    await adapter.stop();
  });
});
