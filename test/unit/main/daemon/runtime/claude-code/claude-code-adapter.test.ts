/**
 * Adapter edge cases the real CLI does not produce on demand, against a stand-in CLI
 * (test/fixtures/fake-claude-cli.mjs). The real-CLI behaviour is proven in
 * test/integration/runtime/claude-code-adapter.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ClaudeCodeAdapter } from '../../../../../../main/daemon/runtime/claude-code/claude-code-adapter.js';
import { memorySessionStore } from '../../../../../../main/daemon/runtime/runtime-session-store.js';
import { RuntimeEventRecorder } from '../../../../../fixtures/runtime-event-recorder.js';

const fakeCli = resolve(import.meta.dirname, '../../../../../fixtures/fake-claude-cli.mjs');
const dirs: string[] = [];
const adapters: ClaudeCodeAdapter[] = [];

function make(mode: string, answers: Array<string | null>, startTimeoutMs = 60_000) {
  const dir = mkdtempSync(join(tmpdir(), 'agentteam-fakecli-'));
  dirs.push(dir);
  const host = {
    calls: 0,
    async onTurnBoundary() {
      this.calls += 1;
      return answers.shift() ?? null;
    },
  };
  const adapter = new ClaudeCodeAdapter({
    agentId: 'a',
    command: fakeCli,
    args: [],
    env: { FAKE_CLAUDE_MODE: mode },
    model: null,
    cwd: dir,
    mcp: { url: 'http://127.0.0.1:1/mcp', token: 't', headers: { Authorization: 'Bearer t' } },
    runtimeDir: dir,
    projectRoot: dir,
    threadContractFingerprint: 'fp',
    sessionStore: memorySessionStore(),
    host,
    processEnv: { PATH: process.env.PATH },
    restartPolicy: { baseDelayMs: 10, maxDelayMs: 20, maxRestarts: 2, windowMs: 60_000 },
    startTimeoutMs,
  });
  adapters.push(adapter);
  return { adapter, host, rec: new RuntimeEventRecorder(adapter.events$) };
}

afterEach(async () => {
  await Promise.all(adapters.splice(0).map((a) => a.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ClaudeCodeAdapter (stand-in CLI)', () => {
  it('falls back to a follow-up user message when a successful turn ends without a Stop hook', async () => {
    const { adapter, host, rec } = make('no-stop-hook', ['Final delivery check: exact target "#general"', null]);
    expect((await adapter.start()).ok).toBe(true);
    await adapter.deliver('hello');
    await rec.waitFor((e) => e.type === 'final_check');
    await rec.waitFor(
      (e) => e.type === 'turn_end',
      rec.events.findIndex((e) => e.type === 'final_check'),
    );
    expect(rec.types()).toEqual([
      'ready',
      'turn_start',
      'local_text',
      'turn_end:completed',
      'final_check:injected',
      'turn_start',
      'local_text',
      'turn_end:completed',
    ]);
    expect(rec.events.find((e) => e.type === 'final_check')).toMatchObject({ via: 'user_message' });
    expect(host.calls).toBe(2);
  });

  it('a process that keeps crashing is restarted with backoff until the cap, then gives up', async () => {
    const { adapter, rec } = make('exit-on-init', []);
    expect((await adapter.start()).ok).toBe(true);
    const gaveUp = await rec.waitFor((e) => e.type === 'gave_up');
    expect(gaveUp).toMatchObject({ restarts: 2, generation: 3 });
    expect(
      rec.events.filter((e) => e.type === 'restart_scheduled').map((e) => e.type === 'restart_scheduled' && e.delayMs),
    ).toEqual([10, 20]);
    expect(rec.events.filter((e) => e.type === 'exit').map((e) => e.type === 'exit' && [e.code, e.expected])).toEqual([
      [3, false],
      [3, false],
      [3, false],
    ]);
  });

  it('a restart whose stored session is gone (killed before its transcript was written) exits before ready; it is restarted fresh, not left down', async () => {
    const { adapter, rec } = make('stale-resume', [null]);
    expect((await adapter.start()).ok).toBe(true);
    await adapter.deliver('hello');
    await rec.waitFor((e) => e.type === 'turn_end');
    process.kill(-(adapter.pid ?? 0), 'SIGKILL');
    const ready = await rec.waitFor((e) => e.type === 'ready' && e.generation === 3);
    expect(ready).toMatchObject({ resumed: false });
    // The failed resume (generation 2) is no turn: it only exits and is restarted.
    expect(rec.events.filter((e) => e.generation === 2).map((e) => e.type)).toEqual(['exit', 'restart_scheduled']);
  });

  it('a CLI that never answers initialize is a start_timeout, and its process is killed without a restart', async () => {
    // The skeleton killed it for the failed start: an expected exit (no pending row fails for it).
    const { adapter, rec } = make('silent', [], 300);
    expect(await adapter.start()).toMatchObject({ ok: false, code: 'start_timeout' });
    await rec.waitFor((e) => e.type === 'exit');
    expect(rec.types()).toEqual(['exit']);
    expect(rec.events[0]).toMatchObject({ signal: 'SIGKILL', expected: true });
  });
});
