/**
 * issue 29 "Turns end" from the phone: the assembled daemon with the demo runtime (a quiet task far
 * longer than the test) and a conversation bound to a (fake, real-wire) Telegram chat. The turn's
 * first beacon in the chat brings "⏹ Demo is working on this. Stop the turn?" with Stop; a
 * stranger's press changes nothing; the operator's press stops exactly that turn: the wake ends
 * `failed` / `stopped_by_operator`, the message is edited and its button removed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon } from '../../../main/daemon/index.js';
import { startFakeTelegram } from '../../fixtures/fake-telegram.js';

const CHAT = -100777;
const OPERATOR = 501;
const STRANGER = 666;
const TUNING = { pollTimeoutSeconds: 5, sendTimeoutMs: 1000, typingIntervalMs: 60_000, pollBackoffMs: 100 };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('Stop on the working status: a stranger is refused; the operator stops the turn (failed / stopped_by_operator)', async () => {
  const tg = await startFakeTelegram();
  cleanups.push(() => tg.close());
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-tg-stop-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_TASK_MS: '3600000' } }],
      channels: {
        telegram: {
          botTokenEnv: 'TG_STOP_TOKEN',
          silenceWatchdog: { thresholdSeconds: 1 },
          apiRoot: tg.apiRoot,
          bindings: [{ chatId: CHAT, target: '#general', allowFrom: [OPERATOR] }],
        },
      },
    }),
  );
  const daemon = await createDaemon({
    dataDir: dir,
    env: { TG_STOP_TOKEN: tg.token },
    channelTuning: { telegram: TUNING },
  });
  cleanups.push(() => daemon.stop());

  const since = tg.calls.length;
  const sent = await daemon.api['messages.send']({ target: '#general', content: '@demo /slow' });
  const offerCall = await tg.waitFor(
    (c) => c.method === 'sendMessage' && c.body.chat_id === CHAT && String(c.body.text).includes('Stop the turn?'),
    since,
  );
  const offer = tg.chat(CHAT).find((m) => m.text === offerCall.body.text);
  expect(offer?.text).toBe('⏹ Demo is working on this. Stop the turn?');
  expect(offer?.keyboard?.flat().map((b) => b.text)).toEqual(['Stop']);
  const wakeOf = async () =>
    (await daemon.api['wakes.list']({ target: '#general' })).find((w) => w.messageId === sent.messageId);
  const answerTo = (queryId: string) =>
    tg.waitFor((c) => c.method === 'answerCallbackQuery' && c.body.callback_query_id === queryId, 0);

  const refused = tg.userPresses({ chatId: CHAT, fromId: STRANGER, messageId: offer!.messageId, button: 'Stop' });
  await answerTo(refused);
  expect(tg.callbackAnswers.at(-1)).toEqual({
    queryId: refused,
    text: 'You are not allowed to stop turns in this chat.',
  });
  expect((await wakeOf())?.status).toBe('delivered');

  const pressed = tg.userPresses({ chatId: CHAT, fromId: OPERATOR, messageId: offer!.messageId, button: 'Stop' });
  await answerTo(pressed);
  expect(tg.callbackAnswers.at(-1)).toEqual({ queryId: pressed, text: 'Stopped.' });
  await tg.waitFor((c) => c.method === 'editMessageText' && c.body.message_id === offer!.messageId, 0);
  const wake = await wakeOf();
  expect(wake && isTerminal(wake.status)).toBe(true);
  expect(wake).toMatchObject({ status: 'failed', reason: 'stopped_by_operator' });
  expect(tg.chat(CHAT).find((m) => m.messageId === offer!.messageId)).toMatchObject({
    text: '⏹ Demo: stopped by @user501.',
    keyboard: null,
  });
});
