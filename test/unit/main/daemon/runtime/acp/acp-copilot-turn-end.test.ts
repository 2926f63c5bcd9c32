/**
 * issue 38 (contract §6.5, §9.3, §12: local text is never a status): how the ACP driver ends a
 * Copilot turn. The driver runs its real session code against an agent speaking ACP over the
 * process's stdio, scripted here as Copilot CLI 1.0.102 behaves (research/acp.md §4): a failed
 * model request ends `end_turn` after agent text "Error: …", and the CLI appends a
 * `session.error` event to `$COPILOT_HOME/session-state/<id>/events.jsonl` before it answers.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { asyncScheduler } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AcpDriver } from '../../../../../../main/daemon/runtime/acp/acp-driver.js';
import type {
  DriverContext,
  DriverEvent,
  DriverSession,
} from '../../../../../../main/daemon/runtime/driver-session.js';
import type { RuntimeProcess } from '../../../../../../main/daemon/runtime/runtime-process.js';

const SESSION_ID = '84bfd6ab-6989-423a-ad81-40ae275b701f';
const MODEL_SAYS = 'Error: 429 too many requests, try again in 5 hours';

/** One scripted turn: the agent text it streams, and the events the CLI appends to its log before answering. */
interface ScriptedTurn {
  readonly chunks: readonly string[];
  readonly logged: ReadonlyArray<Record<string, unknown>>;
}

/** A Copilot-shaped ACP agent on in-memory stdio: answers the handshake, then one scripted turn per prompt. */
function copilotAgent(home: string, turns: ScriptedTurn[]) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const log = join(home, '.copilot', 'session-state', SESSION_ID, 'events.jsonl');
  const send = (m: unknown) => stdout.write(`${JSON.stringify(m)}\n`);
  createInterface({ input: stdin }).on('line', (line) => {
    const m = JSON.parse(line) as { id?: number; method?: string };
    if (m.id === undefined) return;
    switch (m.method) {
      case 'initialize':
        return send({
          jsonrpc: '2.0',
          id: m.id,
          result: {
            protocolVersion: 1,
            agentCapabilities: { loadSession: true, mcpCapabilities: { http: true } },
            agentInfo: { name: 'Copilot', version: '1.0.102' },
          },
        });
      case 'session/new':
        mkdirSync(join(home, '.copilot', 'session-state', SESSION_ID), { recursive: true });
        return send({
          jsonrpc: '2.0',
          id: m.id,
          result: {
            sessionId: SESSION_ID,
            modes: {
              currentModeId: 'https://agentclientprotocol.com/protocol/session-modes#agent',
              availableModes: [{ id: 'https://agentclientprotocol.com/protocol/session-modes#agent', name: 'Agent' }],
            },
          },
        });
      case 'session/set_mode':
        return send({ jsonrpc: '2.0', id: m.id, result: {} });
      case 'session/prompt': {
        const turn = turns.shift() ?? { chunks: [], logged: [] };
        for (const text of turn.chunks)
          send({
            jsonrpc: '2.0',
            method: 'session/update',
            params: {
              sessionId: SESSION_ID,
              update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
            },
          });
        for (const e of turn.logged) appendFileSync(log, `${JSON.stringify(e)}\n`);
        return send({ jsonrpc: '2.0', id: m.id, result: { stopReason: 'end_turn' } });
      }
      default:
        return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `no ${m.method}` } });
    }
  });
  return { stdin, stdout, log };
}

const userMessage = (content: string) => ({ type: 'user.message', data: { content, messageId: 'u1' } });
const assistantSays = (content: string) => ({
  type: 'assistant.message',
  data: { messageId: 'a1', originatingMessageId: 'u1', content, toolRequests: [] },
});
const turnEnd = { type: 'assistant.turn_end', data: { turnId: '0' } };
const sessionError = (statusCode: number, errorType: string, message: string) => ({
  type: 'session.error',
  data: { errorType, message, statusCode, originatingMessageId: 'u1' },
});

describe('Copilot turn end over ACP: failures only from the CLI’s structured record (issue 38)', () => {
  let home = '';
  let events: DriverEvent[] = [];
  let session: DriverSession;
  let turns: ScriptedTurn[] = [];

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'acp-copilot-'));
    events = [];
    turns = [];
    const agent = copilotAgent(home, turns);
    const process = { stdin: agent.stdin, stdout: agent.stdout, exit: null, kill: () => undefined };
    const ctx = {
      generation: 1,
      process: process as unknown as RuntimeProcess,
      resumeSessionId: null,
      scheduler: asyncScheduler,
      log: undefined,
      emit: (e: DriverEvent) => events.push(e),
      delay: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
      askInTurn: () => Promise.resolve(),
      askApproval: () => Promise.reject(new Error('no approvals here')),
    } satisfies DriverContext;
    const driver = new AcpDriver({
      agentId: 'copilot',
      preset: 'copilot',
      command: null,
      args: [],
      env: {},
      cwd: home,
      model: null,
      home,
      sharedCache: join(home, 'cache'),
      projectRoot: home,
      mcp: { url: 'http://127.0.0.1:1/mcp', token: 't' },
      permissions: 'ask',
    });
    const opened = await driver.connect(ctx);
    if (!opened.ok) throw new Error(opened.message);
    session = opened.session;
  });

  afterEach(async () => {
    session.close?.();
    await rm(home, { recursive: true, force: true });
  });

  /** Submits one prompt and resolves with the turn's end. */
  const turn = async (scripted: ScriptedTurn): Promise<DriverEvent> => {
    turns.push(scripted);
    const before = events.length;
    expect(await session.submit('the operator asks')).toEqual({ ok: true });
    for (;;) {
      const end = events.slice(before).find((e) => e.type === 'turn_ended');
      if (end !== undefined) return end;
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  it('the model writing "Error: 429 … try again in 5 hours" ends the turn completed (final-check next), never failed', async () => {
    const end = await turn({
      chunks: [MODEL_SAYS],
      logged: [userMessage('the operator asks'), assistantSays(MODEL_SAYS), turnEnd],
    });
    expect(end).toEqual({ type: 'turn_ended', outcome: 'completed', error: null });
    // The text stays local: reported as local text only (the skeleton reduces it to counts).
    expect(events).toContainEqual({ type: 'local_text', text: MODEL_SAYS });
  });

  it('a provider 429 the CLI recorded as session.error fails the turn provider_rate_limited (the pause path)', async () => {
    const detail = 'Failed to get response from the AI model; retried 5 times Last error: 429 fake: scripted 429';
    const end = await turn({
      chunks: [`Error: ${detail}`],
      logged: [userMessage('the operator asks'), turnEnd, sessionError(429, 'rate_limit', detail)],
    });
    expect(end).toEqual({
      type: 'turn_ended',
      outcome: 'failed',
      error: `HTTP 429: ${detail}`,
      reason: 'provider_rate_limited',
    });
  });

  it('a session.error of an earlier turn is not the next turn’s: that one ends completed', async () => {
    const first = await turn({
      chunks: ['Error: Authentication failed (HTTP 401).'],
      logged: [
        userMessage('the operator asks'),
        turnEnd,
        sessionError(401, 'authentication', 'Authentication failed (HTTP 401).'),
      ],
    });
    expect(first).toMatchObject({ outcome: 'failed', reason: 'auth_required' });
    const second = await turn({
      chunks: ['Done.'],
      logged: [userMessage('the operator asks'), assistantSays('Done.'), turnEnd],
    });
    expect(second).toEqual({ type: 'turn_ended', outcome: 'completed', error: null });
  });
});
