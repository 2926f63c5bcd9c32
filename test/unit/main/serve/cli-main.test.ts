import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/serve/cli-main.js';
import type { ServeServer } from '../../../../main/serve/serve-server.js';
import { createScriptedDaemon, wakeFixture, type ScriptedDaemon } from '../../../fixtures/scripted-daemon.js';
import { captureIo } from '../../../fixtures/capture-io.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cli-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs `agentteam serve` in-process with the scripted daemon; returns a stop handle. */
async function startServe(daemon: ScriptedDaemon, outIsTerminal = false) {
  const io = { ...captureIo(), outIsTerminal };
  let stop = (_signal: string): void => undefined;
  const stopRequested = new Promise<string>((r) => (stop = r));
  let listening = (_s: ServeServer): void => undefined;
  const ready = new Promise<ServeServer>((r) => (listening = r));
  const exit = runCli(['serve', '--data-dir', dataDir, '--port', '0'], {
    io,
    createDaemon: async () => daemon,
    serve: { rendererDir: null, stopRequested, onListening: listening },
  });
  const server = await ready;
  return { io, server, exit, stop };
}

describe('agentteam CLI without a daemon', () => {
  it.each([
    ['send', ['send', '--data-dir', 'DIR', '--target', '#general', '--text', 'hi']],
    ['wakes', ['wakes', '--data-dir', 'DIR', '--json']],
    ['audit', ['audit', '--data-dir', 'DIR', '--json']],
    ['messages', ['messages', '--data-dir', 'DIR', '--target', '#general', '--json']],
  ])('%s prints one line and exits 1', async (_name, argv) => {
    const io = captureIo();
    const code = await runCli(
      argv.map((a) => (a === 'DIR' ? dataDir : a)),
      { io },
    );
    expect(code).toBe(1);
    expect(io.errLines).toHaveLength(1);
    expect(io.errLines[0]).toMatch(/no daemon is running .*agentteam serve --data-dir/);
    expect(io.outLines).toEqual([]);
  });

  it('without --data-dir every command uses the default data dir (the one npm start uses)', async () => {
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = dataDir;
    try {
      for (const argv of [
        ['wakes', '--json'],
        ['send', '--target', '#general', '--text', 'hi'],
      ]) {
        const io = captureIo();
        expect(await runCli(argv, { io })).toBe(1);
        expect(io.errLines).toEqual([
          `agentteam: no daemon is running for ${join(dataDir, 'AgentTeam')}; start one with "agentteam serve --data-dir ${join(dataDir, 'AgentTeam')}".`,
        ]);
      }
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
  });

  it('treats a serve.json left by a dead process as no daemon', async () => {
    await writeFile(join(dataDir, 'serve.json'), JSON.stringify({ port: 1, pid: 2 ** 22 + 12345, startedAt: 'x' }));
    const io = captureIo();
    expect(await runCli(['wakes', '--data-dir', dataDir, '--json'], { io })).toBe(1);
    expect(io.errLines[0]).toMatch(/no daemon is running/);
  });
});

describe('agentteam CLI bad input', () => {
  it.each([
    [['send', '--data-dir', '', '--target', '#general', '--text', 'hi'], /--data-dir is required/],
    [['send', '--data-dir', 'X', '--target', 'general', '--text', 'hi'], /is not a target/],
    [['send', '--data-dir', 'X', '--target', '#general', '--text', '  '], /--text is required/],
    [['messages', '--data-dir', 'X', '--json'], /--target is required/],
    [['wakes', '--data-dir', 'X', '--bogus'], /bogus/],
    [['wakes', '--data-dir', 'X', '--limit', '0'], /--limit must be/],
    [['serve', '--data-dir', 'X', '--port', '70000'], /--port must be/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('%j exits 2 with one line', async (argv, message) => {
    const io = captureIo();
    expect(await runCli(argv, { io })).toBe(2);
    expect(io.errLines).toHaveLength(1);
    expect(io.errLines[0]).toMatch(message);
  });
});

describe('agentteam serve + send/wakes/messages', () => {
  it('prints the URL with the token once, serves the CLI, and shuts down cleanly on a signal', async () => {
    const daemon = createScriptedDaemon();
    const { io, server, exit, stop } = await startServe(daemon);
    const token = (await import('node:fs/promises')).readFile(join(dataDir, 'serve-token'), 'utf8');
    const operatorKey = new URL(server.url).hash.replace('#operator=', '');
    expect(operatorKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // issue 41: stdout is not a terminal (a file, the journal — readable through /proc/<pid>/fd/1):
    // the key is printed nowhere, on stdout or stderr, and no `export` line offers it to shell history.
    expect(io.outLines).toEqual([
      `AgentTeam is serving ${dataDir} at ${server.urlWithoutOperatorKey}`,
      `Open the UI with the URL "agentteam url --data-dir ${dataDir}" prints (it adds the operator key, which is kept in ${join(dataDir, 'operator-key')}, not printed here).`,
      `The operator's commands (send, approve, stop, …) read the operator key from ${join(dataDir, 'operator-key')}.`,
    ]);
    expect([...io.outLines, ...io.errLines].join('\n')).not.toContain(operatorKey);
    // It is kept for the operator's CLI in one 0600 file of the data dir, and in no other file there.
    expect(readFileSync(join(dataDir, 'operator-key'), 'utf8').trim()).toBe(operatorKey);
    expect((await stat(join(dataDir, 'operator-key'))).mode & 0o777).toBe(0o600);
    for (const name of readdirSync(dataDir))
      if (name !== 'operator-key' && statSync(join(dataDir, name)).isFile())
        expect(readFileSync(join(dataDir, name), 'utf8')).not.toContain(operatorKey);
    // `agentteam url` prints the whole URL for the operator who asks.
    const url = captureIo();
    expect(await runCli(['url', '--data-dir', dataDir], { io: url })).toBe(0);
    expect(url.outLines).toEqual([server.url]);
    expect(server.url).toContain(`?token=${(await token).trim()}`);
    expect((await stat(join(dataDir, 'serve-token'))).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dataDir, 'serve.json'))).toBe(true);

    const send = captureIo();
    expect(
      await runCli(['send', '--data-dir', dataDir, '--target', '#general', '--text', '@demo hi'], { io: send }),
    ).toBe(0);
    expect(send.outLines).toEqual(['sent msg_1 seq 1 to #general']);

    daemon.wakes[0] = {
      ...wakeFixture({
        wakeToken: 'w_1',
        status: 'completed_without_visible_reply',
        reason: 'no_reply',
        model: 'demo-model-1',
      }),
      beacons: 2,
      finalCheck: true,
    };
    const wakes = captureIo();
    expect(await runCli(['wakes', '--data-dir', dataDir, '--json'], { io: wakes })).toBe(0);
    const rows = JSON.parse(wakes.outLines[0] ?? '') as Array<Record<string, unknown>>;
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      [
        'agentId',
        // contract §10.1 (issue 24): the technical and display names, and the model
        'agentTechnicalName',
        'agentName',
        'model',
        'beacons',
        'createdAt',
        'endedAt',
        'finalCheck',
        'messageId',
        'reason',
        'recoveries',
        'runtime',
        'status',
        'target',
        'wakeToken',
      ].sort(),
    );
    expect(rows[0]).toMatchObject({
      wakeToken: 'w_1',
      status: 'completed_without_visible_reply',
      reason: 'no_reply',
      beacons: 2,
      finalCheck: true,
      agentId: 'demo',
      agentTechnicalName: 'demo',
      agentName: 'Demo',
      model: 'demo-model-1',
    });

    const msgs = captureIo();
    expect(await runCli(['messages', '--data-dir', dataDir, '--target', '#general', '--json'], { io: msgs })).toBe(0);
    expect(JSON.parse(msgs.outLines[0] ?? '')).toEqual([
      expect.objectContaining({ id: 'msg_1', seq: 1, author: 'you', content: '@demo hi' }),
    ]);

    const unknown = captureIo();
    expect(await runCli(['send', '--data-dir', dataDir, '--target', '#nowhere', '--text', 'x'], { io: unknown })).toBe(
      2,
    );
    expect(unknown.errLines).toEqual([
      'agentteam: there is no channel #nowhere; check the name, or add --create to make it. (unknown_target)',
    ]);
    const created = captureIo();
    expect(
      await runCli(['send', '--data-dir', dataDir, '--target', '#nowhere', '--text', 'x', '--create'], { io: created }),
    ).toBe(0);
    expect(created.outLines).toEqual(['sent msg_2 seq 1 to #nowhere']);

    stop('SIGTERM');
    expect(await exit).toBe(0);
    expect(daemon.stopped).toBe(1);
    expect(existsSync(join(dataDir, 'serve.json'))).toBe(false);
    // issue 41: a clean stop removes this start's key.
    expect(existsSync(join(dataDir, 'operator-key'))).toBe(false);
    const after = captureIo();
    expect(await runCli(['wakes', '--data-dir', dataDir, '--json'], { io: after })).toBe(1);
  });

  it('issue 41: to a terminal, serve prints the URL with the operator key once, and no export line', async () => {
    const daemon = createScriptedDaemon();
    const { io, server, exit, stop } = await startServe(daemon, true);
    expect(io.outLines).toEqual([
      `AgentTeam is serving ${dataDir} at ${server.url}`,
      `The operator's commands (send, approve, stop, …) read the operator key from ${join(dataDir, 'operator-key')}.`,
    ]);
    expect(io.outLines.join('\n')).not.toContain('export ');
    stop('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('issue 24: audit lists the audited sends newest first, --json as they are, text escaped for the terminal', async () => {
    const daemon = createScriptedDaemon();
    daemon.audit.push(
      {
        id: 2,
        agentId: 'demo',
        agentName: 'Demo\u001b]52;c;aGk=\u0007',
        kind: 'cross_target_send',
        target: 'dm:@claude',
        messageId: 'msg_9',
        wakeTokens: [],
        at: '2026-03-02T09:06:00.000Z',
      },
      {
        id: 1,
        agentId: 'demo',
        agentName: 'Demo',
        kind: 'cross_target_send',
        target: '#ops',
        messageId: 'msg_7',
        wakeTokens: ['wk_a', 'wk_b'],
        at: '2026-03-02T09:05:00.000Z',
      },
    );
    const { exit, stop } = await startServe(daemon);
    const json = captureIo();
    expect(await runCli(['audit', '--data-dir', dataDir, '--json'], { io: json })).toBe(0);
    const rows = JSON.parse(json.outLines[0] ?? '') as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.id)).toEqual([2, 1]);
    expect(rows[1]).toEqual({
      id: 1,
      kind: 'cross_target_send',
      agentId: 'demo',
      agentName: 'Demo',
      target: '#ops',
      messageId: 'msg_7',
      wakeTokens: ['wk_a', 'wk_b'],
      at: '2026-03-02T09:05:00.000Z',
    });
    const text = captureIo();
    expect(await runCli(['audit', '--data-dir', dataDir, '--limit', '5'], { io: text })).toBe(0);
    expect(text.outLines).toEqual([
      '2026-03-02T09:06:00.000Z  Demo\\x1b]52;c;aGk=\\x07 (demo)  cross-target send to dm:@claude  message msg_9',
      '2026-03-02T09:05:00.000Z  Demo (demo)  cross-target send to #ops  message msg_7  wakes wk_a,wk_b',
    ]);
    const one = captureIo();
    expect(await runCli(['audit', '--data-dir', dataDir, '--json', '--limit', '1'], { io: one })).toBe(0);
    expect((JSON.parse(one.outLines[0] ?? '') as unknown[]).length).toBe(1);
    stop('SIGINT');
    await exit;
  });

  it('pages through every message, oldest first', async () => {
    const daemon = createScriptedDaemon();
    for (let i = 0; i < 1203; i++) await daemon.api['messages.send']({ target: '#general', content: `m${i}` });
    const { exit, stop } = await startServe(daemon);
    const io = captureIo();
    expect(await runCli(['messages', '--data-dir', dataDir, '--target', '#general', '--json'], { io })).toBe(0);
    const rows = JSON.parse(io.outLines[0] ?? '') as Array<{ seq: number }>;
    expect(rows).toHaveLength(1203);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 1203 }, (_, i) => i + 1));
    stop('SIGINT');
    await exit;
  });

  it('refuses to serve a data dir another live process serves', async () => {
    await writeFile(join(dataDir, 'serve.json'), JSON.stringify({ port: 4000, pid: process.ppid, startedAt: 'x' }));
    const io = captureIo();
    const code = await runCli(['serve', '--data-dir', dataDir, '--port', '0'], {
      io,
      createDaemon: async () => createScriptedDaemon(),
      serve: { rendererDir: null, stopRequested: new Promise(() => undefined) },
    });
    expect(code).toBe(1);
    expect(io.errLines[0]).toMatch(/already serves/);
  });

  it('reports a daemon that cannot start in one line, exit 1', async () => {
    const io = captureIo();
    const code = await runCli(['serve', '--data-dir', dataDir, '--port', '0'], {
      io,
      createDaemon: async () => {
        throw new Error(`${dataDir}/agentteam.json: agents[0].runtime: invalid option`);
      },
      serve: { rendererDir: null, stopRequested: new Promise(() => undefined) },
    });
    expect(code).toBe(1);
    expect(io.errLines).toEqual([
      `agentteam: the daemon could not start: ${dataDir}/agentteam.json: agents[0].runtime: invalid option`,
    ]);
  });
});
