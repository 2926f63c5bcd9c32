/**
 * The one API gate both transports answer through (IPC: test/unit/main/app/ipc-gate.test.ts,
 * WebSocket: test/unit/main/serve/serve-server.test.ts). Plain Node, no transport.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createFakeDaemon, createRecordingLog, sampleWake, type FakeDaemon } from '../../../../fixtures/daemon-fake.js';
import { ApiError, type ApiHandlers } from '../../../../../shared/api/contract.js';
import { answerCall, checkedEvent } from '../../../../../main/daemon/api/api-gate.js';

describe('api gate', () => {
  let daemon: FakeDaemon;
  let log: ReturnType<typeof createRecordingLog>;
  const throwing = (name: keyof ApiHandlers, error: unknown): ApiHandlers =>
    ({
      ...daemon.api,
      [name]: async () => {
        throw error;
      },
    }) as ApiHandlers;

  beforeEach(() => {
    daemon = createFakeDaemon();
    log = createRecordingLog();
  });

  it('answers a valid call with {ok:true,value}, the handler seeing the parsed request', async () => {
    expect(await answerCall(daemon.api, 'wakes.list', { activeOnly: true }, log)).toEqual({
      ok: true,
      value: [sampleWake()],
    });
    expect(daemon.calls).toEqual([['wakes.list', { activeOnly: true }]]);
  });

  it('refuses a name that is not a call, including prototype keys, with unknown_call', async () => {
    for (const name of ['wakes.delete', '__proto__', 'constructor', 'toString']) {
      expect(await answerCall(daemon.api, name, {}, log)).toEqual({
        ok: false,
        code: 'unknown_call',
        message: `"${name}" is not a call of the AgentTeam API.`,
      });
    }
    expect(daemon.calls).toEqual([]);
  });

  it('answers an invalid request with invalid_request naming the field, never calling the daemon', async () => {
    const result = await answerCall(daemon.api, 'wakes.list', { limit: 'ten' }, log);
    expect(result).toMatchObject({ ok: false, code: 'invalid_request' });
    expect((result as { message: string }).message).toMatch(/^wakes\.list: limit: /);
    expect(await answerCall(daemon.api, 'agents.list', { sneaky: true }, log)).toMatchObject({
      code: 'invalid_request',
    });
    expect(daemon.calls).toEqual([]);
  });

  it('maps too_big on content to content_too_large, and too_small on content to invalid_request', async () => {
    const send = (content: string) => answerCall(daemon.api, 'messages.send', { target: '#general', content }, log);
    expect(await send('x'.repeat(1_048_577))).toMatchObject({ ok: false, code: 'content_too_large' });
    expect(await send('')).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(daemon.calls).toEqual([]);
  });

  it("keeps an ApiError's code and message", async () => {
    const api = throwing('wakes.inspect', new ApiError('unknown_wake', 'No wake "w_x"; list wakes to find its token.'));
    expect(await answerCall(api, 'wakes.inspect', { wakeToken: 'w_x' }, log)).toEqual({
      ok: false,
      code: 'unknown_wake',
      message: 'No wake "w_x"; list wakes to find its token.',
    });
    expect(log.lines).toEqual([]);
  });

  it('hides any other failure behind internal, with a safe message, and logs its stack', async () => {
    const api = throwing('agents.list', new TypeError('boom at line 3'));
    const result = await answerCall(api, 'agents.list', {}, log, { transport: 'ws' });
    expect(result).toEqual({
      ok: false,
      code: 'internal',
      message: 'agents.list failed inside the app; the log has the details.',
    });
    const [level, , fields] = log.lines[0] ?? [];
    expect(level).toBe('error');
    expect(fields).toMatchObject({ call: 'agents.list', transport: 'ws' });
    expect(fields?.error).toMatch(/boom at line 3/);
  });

  it('refuses (and logs) a daemon answer that breaks the contract, when responses are checked', async () => {
    const broken = { ...daemon.api, 'messages.send': async () => ({ messageId: 1 }) } as unknown as ApiHandlers;
    const request = { target: '#general', content: 'hi' };
    expect(await answerCall(broken, 'messages.send', request, log)).toMatchObject({ ok: false, code: 'internal' });
    expect(log.lines.some(([level, msg]) => level === 'error' && msg.includes('response breaks the contract'))).toBe(
      true,
    );
    // As packaged (checkResponse off) the request is still parsed, the answer passed as is.
    const off = { checkResponse: false };
    expect(await answerCall(broken, 'messages.send', request, log, off)).toEqual({
      ok: true,
      value: { messageId: 1 },
    });
    expect(await answerCall(daemon.api, 'wakes.list', { limit: 0 }, log, off)).toMatchObject({
      code: 'invalid_request',
    });
  });

  it('passes a contract event and drops (and logs) one that breaks the contract', () => {
    const wake = sampleWake();
    expect(checkedEvent({ name: 'wake.status', payload: wake }, log)).toEqual({ name: 'wake.status', payload: wake });
    expect(checkedEvent({ name: 'wake.status', payload: { wakeToken: 'w_1' } as never }, log)).toBeNull();
    expect(log.lines.some(([level, msg]) => level === 'error' && msg.includes('event breaks the contract'))).toBe(true);
  });
});
