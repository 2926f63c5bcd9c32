/**
 * The assembled daemon (createDaemon: store, wake lifecycle, prompt compiler, watchdog,
 * delivery confirmation, MCP server, runtime adapters) driven only through the surfaces a
 * person has: the API contract, its events and the metrics. The agent is the demo runtime,
 * which talks to the daemon's MCP server over HTTP like a real runtime.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type ApiEvent, type Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];

async function start(config: unknown): Promise<{ daemon: Daemon; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-daemon-'));
  dirs.push(dir);
  await writeFile(join(dir, 'agentteam.json'), JSON.stringify(config));
  const daemon = await createDaemon({ dataDir: dir });
  daemons.push(daemon);
  return { daemon, dir };
}

const demoConfig = (env: Record<string, string> = {}, thresholdSeconds = 45) => ({
  agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', env }],
  channels: { local: { silenceWatchdog: { thresholdSeconds } } },
});

function terminalOf(events$: Observable<ApiEvent>, wakeToken: () => string | undefined): Promise<Wake> {
  return firstValueFrom(
    events$.pipe(
      filter(
        (e): e is Extract<ApiEvent, { name: 'wake.status' }> =>
          e.name === 'wake.status' && e.payload.wakeToken === wakeToken() && isTerminal(e.payload.status),
      ),
    ),
  ).then((e) => e.payload);
}

/** Sends as the operator and resolves with the one wake it created, once terminal. */
async function sendAndSettle(daemon: Daemon, target: string, content: string): Promise<Wake> {
  const ref: { token?: string } = {};
  const done = terminalOf(daemon.events$, () => ref.token);
  const sent = await daemon.api['messages.send']({ target, content });
  const wakes = await daemon.api['wakes.list']({ target });
  ref.token = wakes.find((w) => w.messageId === sent.messageId)?.wakeToken;
  expect(ref.token).toBeDefined();
  const already = wakes.find((w) => w.wakeToken === ref.token && isTerminal(w.status));
  return already ?? done;
}

afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('assembled daemon with the demo runtime', () => {
  it('issue 41: metric names are the contract wake_* (§10.2) or agentteam_* (prom-client process_/nodejs_ aside), and counters start at 0', async () => {
    const { daemon } = await start(demoConfig());
    const text = await daemon.metrics.metrics();
    const names = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1] ?? '');
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !/^(wake_|agentteam_|process_|nodejs_)/.test(n))).toEqual([]);
    expect(names.filter((n) => n.startsWith('wake_')).sort()).toEqual([
      'wake_completed_without_visible_reply_total',
      'wake_failed_total',
      'wake_received_total',
      'wake_reply_sent_total',
    ]);
    // Before any wake: a series at 0, so increase(wake_failed_total[10m]) sees the first failure.
    expect(text).toContain('wake_failed_total{runtime="demo"} 0');
    expect(text).toContain('wake_completed_without_visible_reply_total{runtime="demo",reason="no_reply"} 0');
    expect(text).toContain('agentteam_agent_tokens_total{runtime="demo",kind="input"} 0');
  });

  it('a mention wakes the agent; its message_send reply settles reply_sent and counts in the metrics', async () => {
    const { daemon } = await start(demoConfig());
    const wake = await sendAndSettle(daemon, '#general', '@demo hello');
    expect(wake.status).toBe('reply_sent');
    expect(wake.finalCheck).toBe(false);
    // The inspector's timeline carries the delivery outcome of the reply.
    const { events } = await daemon.api['wakes.inspect']({ wakeToken: wake.wakeToken });
    expect(events.filter((e) => e.kind === 'delivery').map((e) => e.detail)).toEqual(['delivered · 1 attempt']);
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages.map((m) => m.authorKind)).toEqual(['operator', 'agent']);
    expect(messages[1]?.content).toContain('[demo]');
    const metrics = await daemon.metrics.metrics();
    expect(metrics).toMatch(/wake_received_total\{runtime="demo"\} 1/);
    expect(metrics).toMatch(/wake_reply_sent_total\{runtime="demo"\} 1/);
    expect(metrics).not.toMatch(/agent_?id/i);
  });

  it('a local-only answer gets exactly one final-check in the same session, then the reply', async () => {
    const { daemon } = await start(demoConfig());
    const wake = await sendAndSettle(daemon, 'dm:@demo', '/local please');
    expect(wake.status).toBe('reply_sent');
    expect(wake.finalCheck).toBe(true);
    const { promptInputs } = await daemon.api['wakes.inspect']({ wakeToken: wake.wakeToken });
    expect(promptInputs.map((p) => p.kind)).toEqual(['turn_context', 'delivery', 'final_check']);
    expect(promptInputs[2]?.text).toContain('dm:@demo');
    // The local text itself was never stored (contract §6.1, §6.5).
    const { messages } = await daemon.api['messages.list']({ target: 'dm:@demo' });
    expect(messages.some((m) => m.content.includes('This answer stays in my local output'))).toBe(false);
  });

  it('a confirmed reaction to the triggering message is the visible reply: stored, shown with the message, reply_sent', async () => {
    const { daemon } = await start(demoConfig());
    const wake = await sendAndSettle(daemon, '#general', '@demo /react');
    expect(wake.status).toBe('reply_sent');
    expect(wake.finalCheck).toBe(false);
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages).toHaveLength(1);
    expect(messages[0]?.reactions).toEqual([{ emoji: '👍', authorId: 'demo', authorName: 'Demo' }]);
  });

  it('a long quiet task shows silence beacons on its wake, then replies', async () => {
    const { daemon } = await start(demoConfig({ DEMO_TASK_MS: '1600' }, 0.5));
    const wake = await sendAndSettle(daemon, '#general', '@demo /slow');
    expect(wake.status).toBe('reply_sent');
    expect(wake.beacons).toBeGreaterThanOrEqual(1);
    const { events } = await daemon.api['wakes.inspect']({ wakeToken: wake.wakeToken });
    expect(events.filter((e) => e.kind === 'beacon').every((e) => (e.detail ?? '').startsWith('🧠 Working…'))).toBe(
      true,
    );
    // Beacons on the local conversation are statuses, never chat messages.
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(
      messages.some((m) => m.content.includes('Working…') && m.authorKind === 'agent' && !m.content.includes('[demo]')),
    ).toBe(false);
  });

  it('bad input gets a stable error code and stores nothing', async () => {
    const { daemon } = await start(demoConfig());
    await expect(daemon.api['messages.send']({ target: 'general', content: 'hi' })).rejects.toMatchObject({
      code: 'invalid_target',
    });
    await expect(daemon.api['messages.send']({ target: 'dm:@nobody', content: 'hi' })).rejects.toMatchObject({
      code: 'unknown_target',
    });
    await expect(
      daemon.api['messages.send']({ target: '#general', content: 'x'.repeat(40_000) }),
    ).rejects.toBeInstanceOf(ApiError);
    await expect(daemon.api['wakes.inspect']({ wakeToken: 'wk_missing' })).rejects.toMatchObject({
      code: 'unknown_wake',
    });
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages).toEqual([]);
  });

  it('everything stored survives a restart of the daemon on the same data dir', async () => {
    const { daemon, dir } = await start(demoConfig());
    await sendAndSettle(daemon, '#general', '@demo one');
    await daemon.stop();
    const again = await createDaemon({ dataDir: dir });
    daemons.push(again);
    const { messages } = await again.api['messages.list']({ target: '#general' });
    expect(messages.map((m) => m.seq)).toEqual([1, 2]);
    const wakes = await again.api['wakes.list']({});
    expect(wakes.map((w) => w.status)).toEqual(['reply_sent']);
  });

  it('an invalid config refuses to start, names the file and path, and changes nothing on disk', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentteam-daemon-'));
    dirs.push(dir);
    const text = JSON.stringify({ agents: [{ id: 'x', name: 'X', runtime: 'gpt' }] });
    await writeFile(join(dir, 'agentteam.json'), text);
    await expect(createDaemon({ dataDir: dir })).rejects.toThrow(/agentteam\.json: agents\[0\]\.runtime/);
    expect(await readFile(join(dir, 'agentteam.json'), 'utf8')).toBe(text);
    expect(await readdir(dir)).toEqual(['agentteam.json']);
  });

  it('issue 43: "host" on a runtime whose descriptor does not run over SSH refuses to start, naming agents[i].runtime', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentteam-daemon-'));
    dirs.push(dir);
    const text = JSON.stringify({
      // The demo runtime's descriptor has no `overSsh` either (and a real runtime's name here would make
      // this a real-CLI file for the test order, test/vitest-order.ts).
      agents: [{ id: 'far', name: 'Far', runtime: 'demo', host: 'ssh://dev@box', cwd: '/srv/repo' }],
    });
    await writeFile(join(dir, 'agentteam.json'), text);
    await expect(createDaemon({ dataDir: dir })).rejects.toThrow(
      /agentteam\.json: agents\[0\]\.runtime: "host" is supported for the runtimes .*\(this agent's is "demo"\)/,
    );
    expect(await readFile(join(dir, 'agentteam.json'), 'utf8')).toBe(text);
    expect(await readdir(dir)).toEqual(['agentteam.json']);
  });
});
