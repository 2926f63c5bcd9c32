/**
 * issue 16 soak, the real-CLI part: `kill -9` of a real `agentteam serve` while a real Codex
 * agent is in a turn (the fake model streams a slow answer), then a restart on the same data dir.
 *
 * - No runtime process of the killed daemon survives the restart (stdin EOF or the pid registry
 *   reaped at start), and the restarted daemon runs its own.
 * - The acknowledged operator message is stored once, with one wake.
 * - That wake, delivered but not terminal when the daemon died, ends once (`failed`, reason
 *   `daemon_restarted`, recoveries 1 — issue 24: never "no visible reply") and ONE recovery wake
 *   re-delivers it (contract §6.6): the model receives the recovery prompt with the original
 *   message, answers through message_send, and the recovery wake ends `reply_sent` once. The
 *   inspector links the original to the recovery wake that continued it.
 *
 * Bounded (< 90 s): Codex starts in a few seconds; the slow answer is 3 s. Linux (/proc) only.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processTreeAlive, signalProcessTree } from '../../../main/daemon/runtime/process-tree.js';
import { connectDaemon, type DaemonClient } from '../../../main/serve/daemon-client.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../fixtures/fake-openai.js';
import { agentState, runtimesOf, serveChild } from '../../fixtures/serve-child.js';

const AGENT = 'cdx1';
const TEXT = `@${AGENT} [[slow:12:250]] [[tool]] Kill-9 soak: a long answer, please.`;

let model: FakeOpenAi | null = null;
let dataDir = '';
const leftovers: number[] = [];

afterAll(async () => {
  for (const pid of leftovers) await signalProcessTree(pid, 'SIGKILL');
  await model?.close();
  if (dataDir !== '') await rm(dataDir, { recursive: true, force: true });
});

async function client(dir: string): Promise<DaemonClient> {
  const c = await connectDaemon(dir);
  if (!c.ok) throw new Error(c.message);
  return c.client;
}

async function call<T>(r: Promise<{ ok: true; value: T } | { ok: false; message: string }>): Promise<T> {
  const res = await r;
  if (!res.ok) throw new Error(res.message);
  return res.value;
}

describe.skipIf(!existsSync('/proc/self/stat'))('kill -9 of the daemon during a real Codex turn (issue 16)', () => {
  it(
    'no runtime of the killed daemon survives; the message is stored once; its wake is recovered and answered once',
    {
      timeout: 90_000,
    },
    async () => {
      model = await startFakeOpenAi();
      dataDir = await mkdtemp(join(tmpdir(), 'agentteam-kill-turn-'));
      await mkdir(join(dataDir, 'home'));
      await mkdir(join(dataDir, 'workspaces', AGENT), { recursive: true });
      const env = { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'fake-key' };
      await writeFile(
        join(dataDir, 'agentteam.json'),
        JSON.stringify({
          agents: [
            { id: AGENT, name: 'Codex', runtime: 'codex', env, cwd: `workspaces/${AGENT}`, model: 'fake-model' },
          ],
        }),
        { mode: 0o600 },
      );

      const first = await serveChild(dataDir);
      const firstPid = first.child.pid as number;
      await agentState(dataDir, first, AGENT, 'idle', 60_000);
      const c1 = await client(dataDir);
      const sent = await call(c1.call('messages.send', { target: '#general', content: TEXT }));
      // In the turn: the model's slow stream (3 s) is running — the moment to kill.
      await agentState(dataDir, first, AGENT, 'busy', 20_000);
      // The model has not finished answering (a request is recorded once its stream ends).
      expect(model.requests.filter((r) => r.input.includes('Kill-9 soak'))).toHaveLength(0);
      const before = runtimesOf(dataDir, firstPid);
      expect(before.length).toBeGreaterThan(0);
      leftovers.push(...before);
      const [wake] = await call(c1.call('wakes.list', { target: '#general', limit: 10 }));
      expect(wake?.messageId).toBe(sent.messageId);
      expect(isTerminal(wake!.status)).toBe(false);
      c1.close();

      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

      const second = await serveChild(dataDir);
      const secondPid = second.child.pid as number;
      await agentState(dataDir, second, AGENT, 'idle', 60_000);
      // No process of the killed daemon survives; the restarted daemon runs its own runtime.
      expect(before.filter((pid) => processTreeAlive(pid))).toEqual([]);
      const after = runtimesOf(dataDir, secondPid);
      expect(after.length).toBeGreaterThan(0);
      expect(after.some((pid) => before.includes(pid))).toBe(false);

      // Every wake ends: poll the API until none is active.
      const c2 = await client(dataDir);
      const deadline = Date.now() + 30_000;
      let wakes = await call(c2.call('wakes.list', { limit: 100 }));
      while (wakes.some((w) => !isTerminal(w.status)) || !wakes.some((w) => w.messageId.startsWith('msg_recovery_'))) {
        if (Date.now() > deadline) throw new Error(`wakes not settled: ${JSON.stringify(wakes)}\n${second.stderr()}`);
        await new Promise((r) => setTimeout(r, 100));
        wakes = await call(c2.call('wakes.list', { limit: 100 }));
      }

      // The acknowledged message is stored once, with exactly one wake of its own.
      const { messages } = await call(c2.call('messages.list', { target: '#general', limit: 100 }));
      expect(messages.filter((m) => m.content === TEXT).map((m) => m.id)).toEqual([sent.messageId]);
      expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
      const original = wakes.filter((w) => w.messageId === sent.messageId);
      expect(original).toHaveLength(1);
      expect(original[0]).toMatchObject({ status: 'failed', reason: 'daemon_restarted' });
      expect(original[0]!.recoveries).toBe(1);

      // ONE recovery wake, answered once, carrying the original message to the model.
      const recoveries = wakes.filter((w) => w.messageId.startsWith('msg_recovery_'));
      expect(recoveries).toHaveLength(1);
      expect(recoveries[0]).toMatchObject({ status: 'reply_sent', target: '#general' });
      for (const w of [original[0]!, recoveries[0]!]) {
        const { events } = await call(c2.call('wakes.inspect', { wakeToken: w.wakeToken }));
        expect(events.filter((e) => e.status !== null && isTerminal(e.status))).toHaveLength(1);
      }
      const recoveryPrompts = model.requests.filter(
        (r) =>
          r.input.includes(`<agentteam-recovery id="${recoveries[0]!.messageId}"`) && r.input.includes(sent.messageId),
      );
      expect(recoveryPrompts.length).toBeGreaterThan(0);
      expect(messages.filter((m) => m.authorId === AGENT)).toHaveLength(1);
      const inspected = await call(c2.call('wakes.inspect', { wakeToken: original[0]!.wakeToken }));
      expect(inspected.continuedIn).toBe(recoveries[0]!.wakeToken);
      c2.close();

      second.child.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
      expect(runtimesOf(dataDir, secondPid)).toEqual([]);
    },
  );
});
