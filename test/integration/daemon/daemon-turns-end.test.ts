/**
 * issue 29 "Turns end", through the assembled daemon with the demo runtime: a turn that does not
 * end (`/slow` with a task far longer than the test) is stopped by the operator (`agents.stop`,
 * the call the chip, `agentteam stop` and Telegram make) or by its `turnTimeoutMinutes` deadline
 * (virtual time: the deadline's scheduler is the test's); the wake ends `failed` with the reason,
 * and the agent takes the next message.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualTimeScheduler, filter, firstValueFrom, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, type Agent, type ApiEvent, type Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];

afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function start(options: { turnScheduler?: VirtualTimeScheduler; turnTimeoutMinutes?: number } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-turns-end-'));
  dirs.push(dir);
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [
        {
          id: 'demo',
          name: 'Demo',
          runtime: 'demo',
          // A quiet task far longer than any test: the turn never ends by itself.
          env: { DEMO_TASK_MS: String(3_600_000) },
          ...(options.turnTimeoutMinutes === undefined ? {} : { turnTimeoutMinutes: options.turnTimeoutMinutes }),
        },
      ],
    }),
  );
  const daemon = await createDaemon({
    dataDir: dir,
    ...(options.turnScheduler === undefined ? {} : { turnScheduler: options.turnScheduler }),
  });
  daemons.push(daemon);
  return daemon;
}

const agentState = (events$: Observable<ApiEvent>, state: Agent['state']) =>
  firstValueFrom(
    events$.pipe(
      filter(
        (e): e is Extract<ApiEvent, { name: 'agent.updated' }> =>
          e.name === 'agent.updated' && e.payload.id === 'demo' && e.payload.state === state,
      ),
    ),
  );

const terminal = (events$: Observable<ApiEvent>, wakeToken: () => string) =>
  firstValueFrom(
    events$.pipe(
      filter(
        (e): e is Extract<ApiEvent, { name: 'wake.updated' }> =>
          e.name === 'wake.updated' && e.payload.wakeToken === wakeToken() && isTerminal(e.payload.status),
      ),
    ),
  ).then((e): Wake => e.payload);

/** Sends `content` to #general and resolves with its wake's token and its terminal wake. */
async function send(daemon: Daemon, content: string) {
  let token = '';
  const done = terminal(daemon.events$, () => token);
  const sent = await daemon.api['messages.send']({ target: '#general', content });
  const wake = (await daemon.api['wakes.list']({ target: '#general' })).find((w) => w.messageId === sent.messageId);
  token = wake?.wakeToken ?? '';
  expect(token).not.toBe('');
  return { token, done };
}

async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('issue 29: a working turn ends with a reason', () => {
  it('Stop (agents.stop) ends the turn at once: failed / stopped_by_operator; the agent takes the next message', async () => {
    const daemon = await start();
    const busy = agentState(daemon.events$, 'busy');
    const slow = await send(daemon, '@demo /slow');
    await busy;
    const stopped = await daemon.api['agents.stop']({ agentId: 'demo' });
    expect(stopped.id).toBe('demo');
    const wake = await slow.done;
    expect(wake).toMatchObject({ status: 'failed', reason: 'stopped_by_operator' });
    expect(wake.detail).toBe('the operator stopped the turn');

    const next = await send(daemon, '@demo hello again');
    expect((await next.done).status).toBe('reply_sent');
  });

  it('Stop of an agent with no working turn is refused, naming it; an unknown agent too', async () => {
    const daemon = await start();
    await daemon.api['agents.check']({ agentId: 'demo' });
    const idle = await refusal(daemon.api['agents.stop']({ agentId: 'demo' }));
    expect(idle.code).toBe('not_working');
    expect(idle.message).toBe('Demo (demo) is not working on a turn; there is nothing to stop.');
    const unknown = await refusal(daemon.api['agents.stop']({ agentId: 'nobody' }));
    expect(unknown.code).toBe('unknown_agent');
    expect(unknown.message).toContain('"nobody"');
  });

  it('turnTimeoutMinutes: the deadline interrupts the turn: failed / turn_timeout; the agent takes the next message', async () => {
    const scheduler = new VirtualTimeScheduler();
    const daemon = await start({ turnScheduler: scheduler, turnTimeoutMinutes: 3 });
    const busy = agentState(daemon.events$, 'busy');
    const slow = await send(daemon, '@demo /slow');
    await busy;
    // Virtual time: the deadline (3 min) is the only action on this scheduler.
    scheduler.flush();
    expect(scheduler.frame).toBe(3 * 60_000);
    const wake = await slow.done;
    expect(wake).toMatchObject({ status: 'failed', reason: 'turn_timeout' });
    expect(wake.detail).toBe('the turn ran longer than 3 minutes (turnTimeoutMinutes) and was interrupted');

    const idle = agentState(daemon.events$, 'idle');
    const next = await send(daemon, '@demo hello again');
    expect((await next.done).status).toBe('reply_sent');
    await idle;
    // The finished turn's deadline was cancelled at its end: nothing is left to fire.
    expect(scheduler.actions.filter((a) => !a.closed)).toHaveLength(0);
  });
});
