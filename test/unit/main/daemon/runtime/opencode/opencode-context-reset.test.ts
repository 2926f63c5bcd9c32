/**
 * The OpenCode driver's context-reset mapping (issue 16, contract §6.6), against a fake
 * `opencode serve` on 127.0.0.1 (the port the driver launched it with) speaking the HTTP + SSE
 * the real CLI does: `GET /config`, `GET /event`, `POST /session`, `GET /mcp`.
 * - `session.error` ContextOverflowError → ONE `context_reset` (context_overflow), and the turn
 *   then ends failed with the error;
 * - `session.compacted` (after `POST /session/:id/summarize`, or OpenCode's own compaction) →
 *   ONE `context_compacted`, inside the running turn: a continuation, no reset (issue 24: this
 *   used to be a `context_reset`);
 * - another session's events → nothing; other errors → no reset.
 */
import { createServer, type ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { OpencodeDriver } from '../../../../../../main/daemon/runtime/opencode/opencode-driver.js';
import type { DriverEvent } from '../../../../../../main/daemon/runtime/driver-session.js';
import type { RuntimeProcess } from '../../../../../../main/daemon/runtime/runtime-process.js';

const SESSION = 'ses_ctx';
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function openSession() {
  const home = await mkdtemp(join(tmpdir(), 'agentteam-oc-reset-'));
  const driver = new OpencodeDriver({
    agentId: 'oc',
    args: [],
    env: {},
    cwd: home,
    model: null,
    command: 'opencode',
    home,
    provider: null,
    mcp: { url: 'http://127.0.0.1:1/mcp', token: 't' },
  });
  const spec = await driver.launch();
  const port = Number(spec.args[spec.args.indexOf('--port') + 1]);
  let events$: ServerResponse | null = null;
  let streamOpen: () => void = () => undefined;
  const streaming = new Promise<void>((r) => (streamOpen = r));
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/event') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      events$ = res;
      streamOpen();
      return;
    }
    const body =
      req.method === 'POST' && path === '/session'
        ? { id: SESSION }
        : path === '/mcp'
          ? { agentteam: { status: 'connected' } }
          : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const events: DriverEvent[] = [];
  const opened = await driver.connect({
    generation: 1,
    process: { stdout: new PassThrough(), exit: null } as unknown as RuntimeProcess,
    resumeSessionId: null,
    scheduler: asyncScheduler,
    log: undefined,
    emit: (e) => events.push(e),
    delay: (ms) => new Promise((r) => setTimeout(r, ms)),
    askInTurn: () => Promise.resolve(),
    // Nothing here asks for approval: a question would be a bug in the test's script.
    askApproval: () => Promise.reject(new Error('no approval expected in this test')),
  });
  if (!opened.ok) throw new Error(opened.message);
  await streaming;
  cleanups.push(async () => {
    opened.session.close?.();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await rm(home, { recursive: true, force: true });
  });
  /** Sends one bus event and resolves once the driver has emitted `count` events in total. */
  const send = async (type: string, properties: Record<string, unknown>) => {
    const before = JSON.stringify(events);
    events$?.write(`data: ${JSON.stringify({ type, properties })}\n\n`);
    // The SSE frame crosses a socket: give it a few turns of the event loop to arrive and be handled.
    for (let i = 0; i < 50 && JSON.stringify(events) === before; i += 1) await new Promise((r) => setTimeout(r, 2));
  };
  /** Writes several bus events in ONE socket write (as OpenCode sends a turn's `idle` and its error) and waits for a change. */
  const sendTogether = async (frames: ReadonlyArray<readonly [string, Record<string, unknown>]>) => {
    const before = JSON.stringify(events);
    events$?.write(frames.map(([type, properties]) => `data: ${JSON.stringify({ type, properties })}\n\n`).join(''));
    for (let i = 0; i < 50 && JSON.stringify(events) === before; i += 1) await new Promise((r) => setTimeout(r, 2));
    // A few more turns: nothing else may follow (asserted by the callers).
    for (let i = 0; i < 10; i += 1) await new Promise((r) => setTimeout(r, 2));
  };
  return { events, send, sendTogether, session: opened.session };
}

const resets = (events: readonly DriverEvent[]) => events.filter((e) => e.type === 'context_overflow');

describe('OpenCode driver: context resets (issue 16)', () => {
  it('ContextOverflowError is one context_overflow reset, then the turn ends failed with it', async () => {
    const { events, send } = await openSession();
    await send('session.status', { sessionID: SESSION, status: { type: 'busy' } });
    await send('session.error', {
      sessionID: SESSION,
      error: {
        name: 'ContextOverflowError',
        data: { message: "This model's maximum context length is 128000 tokens." },
      },
    });
    await send('session.status', { sessionID: SESSION, status: { type: 'idle' } });
    expect(events.map((e) => e.type)).toEqual(['turn_started', 'context_overflow', 'turn_ended']);
    expect(resets(events)).toEqual([{ type: 'context_overflow' }]);
    expect(events.at(-1)).toMatchObject({ outcome: 'failed', error: expect.stringContaining('ContextOverflowError') });
  });

  it('session.compacted in a turn is one context_compacted, no reset; the turn goes on and ends completed', async () => {
    const { events, send } = await openSession();
    await send('session.status', { sessionID: SESSION, status: { type: 'busy' } });
    await send('session.compacted', { sessionID: SESSION });
    await send('session.status', { sessionID: SESSION, status: { type: 'idle' } });
    expect(resets(events)).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['turn_started', 'context_compacted', 'turn_ended']);
    expect(events.at(-1)).toMatchObject({ outcome: 'completed' });
  });

  it('another session’s compaction or overflow, and other errors, are no reset and no compaction', async () => {
    const { events, send } = await openSession();
    await send('session.compacted', { sessionID: 'ses_other' });
    await send('session.error', {
      sessionID: 'ses_other',
      error: { name: 'ContextOverflowError', data: { message: 'too long' } },
    });
    await send('session.status', { sessionID: SESSION, status: { type: 'busy' } });
    await send('session.error', {
      sessionID: SESSION,
      error: { name: 'APIError', data: { message: 'fake: scripted 500', statusCode: 500, isRetryable: false } },
    });
    await send('session.status', { sessionID: SESSION, status: { type: 'idle' } });
    expect(resets(events)).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['turn_started', 'turn_ended']);
  });
});

const IDLE = [
  ['session.status', { sessionID: SESSION, status: { type: 'idle' } }],
  ['session.idle', { sessionID: SESSION }],
] as const;
const FIBERS = {
  name: 'UnknownError',
  data: { message: 'Error: All fibers interrupted without error\n    at xH (/$bunfs/root/chunk-c6vzj92n.js:12:1887)' },
};

describe('OpenCode driver: the error that follows idle, and the wedged session (OpenCode 1.18.33)', () => {
  it('a session.error sent right after idle (OpenCode’s order) fails the turn it belongs to', async () => {
    const { events, send, sendTogether } = await openSession();
    await send('session.status', { sessionID: SESSION, status: { type: 'busy' } });
    await sendTogether([
      ...IDLE,
      [
        'session.error',
        { sessionID: SESSION, error: { name: 'APIError', data: { message: 'boom', statusCode: 500 } } },
      ],
    ]);
    expect(events.map((e) => e.type)).toEqual(['turn_started', 'turn_ended']);
    expect(events.at(-1)).toMatchObject({ outcome: 'failed', error: 'APIError HTTP 500: boom' });
  });

  it('"All fibers interrupted" outside an abort: the process is reported unusable and the turn never ends as completed', async () => {
    const { events, send, sendTogether } = await openSession();
    await send('session.status', { sessionID: SESSION, status: { type: 'busy' } });
    await sendTogether([...IDLE, ['session.error', { sessionID: SESSION, error: FIBERS }]]);
    expect(events.map((e) => e.type)).toEqual(['turn_started', 'process_unusable']);
    expect(events.at(-1)).toMatchObject({ detail: expect.stringContaining('All fibers interrupted without error') });
    // Later idles of that process end nothing: the skeleton replaces it.
    await sendTogether(IDLE);
    expect(events.map((e) => e.type)).toEqual(['turn_started', 'process_unusable']);
  });

  it('the same error in a turn the operator interrupted is that interrupt, not a wedge', async () => {
    const { events, send, sendTogether, session } = await openSession();
    await send('session.status', { sessionID: SESSION, status: { type: 'busy' } });
    expect(await session.interrupt()).toEqual({ ok: true });
    await sendTogether([...IDLE, ['session.error', { sessionID: SESSION, error: FIBERS }]]);
    expect(events.map((e) => e.type)).toEqual(['turn_started', 'turn_ended']);
    expect(events.at(-1)).toMatchObject({ outcome: 'interrupted' });
  });
});
