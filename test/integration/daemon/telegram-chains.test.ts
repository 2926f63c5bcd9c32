/**
 * issue 25 from the phone: the assembled daemon with two demo agents and a conversation bound to a
 * (fake, real-wire) Telegram chat, `limits.agentHops` 1. Demo asks Helper; Helper's answer would be
 * handed back, the second hop: the chain pauses and the chat gets "⏸ Agents paused after 1
 * hand-off." with Continue. A stranger's press is refused and changes nothing; the operator's press
 * is the team service's Continue (the same rule as `chains.continue`): another budget, the held
 * hand-back delivered, Demo posts what Helper answered, and the line loses its button.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, from, mergeMap, startWith } from 'rxjs';
import { afterEach, expect, it } from 'vitest';
import type { Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { startFakeTelegram } from '../../fixtures/fake-telegram.js';

const CHAT = -100778;
const OPERATOR = 502;
const STRANGER = 667;
const TUNING = { pollTimeoutSeconds: 5, sendTimeoutMs: 1000, typingIntervalMs: 60_000, pollBackoffMs: 100 };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Every wake once at least `count` exist and all of them are terminal (re-checked on each wake event). */
function allTerminal(daemon: Daemon, count: number): Promise<Wake[]> {
  return firstValueFrom(
    daemon.events$.pipe(
      filter((e) => e.name === 'wake.status'),
      startWith(null),
      mergeMap(() => from(daemon.api['wakes.list']({}))),
      filter((ws) => ws.length >= count && ws.every((w) => isTerminal(w.status))),
    ),
  );
}

it('a paused chain reaches the chat with Continue: a stranger is refused; the operator continues it', async () => {
  const tg = await startFakeTelegram();
  cleanups.push(() => tg.close());
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-tg-chain-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [
        { id: 'demo', name: 'Demo', runtime: 'demo' },
        { id: 'helper', name: 'Helper', runtime: 'demo' },
      ],
      limits: { agentHops: 1 },
      channels: {
        telegram: {
          botTokenEnv: 'TG_CHAIN_TOKEN',
          apiRoot: tg.apiRoot,
          bindings: [{ chatId: CHAT, target: '#general', allowFrom: [OPERATOR] }],
        },
      },
    }),
  );
  const daemon = await createDaemon({
    dataDir: dir,
    env: { TG_CHAIN_TOKEN: tg.token },
    channelTuning: { telegram: TUNING },
  });
  cleanups.push(() => daemon.stop());

  const since = tg.calls.length;
  const sent = await daemon.api['messages.send']({ target: '#general', content: '@demo /ask helper ping?' });
  const pauseCall = await tg.waitFor(
    (c) => c.method === 'sendMessage' && c.body.chat_id === CHAT && String(c.body.text).startsWith('⏸'),
    since,
  );
  const line = tg.chat(CHAT).find((m) => m.text === pauseCall.body.text);
  expect(line?.text).toBe('⏸ Agents paused after 1 hand-off.');
  expect(line?.keyboard?.flat().map((b) => b.text)).toEqual(['Continue']);
  // One status line per pause: the chat has exactly one.
  expect(tg.chat(CHAT).filter((m) => m.text.startsWith('⏸'))).toHaveLength(1);
  await allTerminal(daemon, 2);
  const paused = async () => (await daemon.api['chains.list']({ target: '#general' }))[0];
  expect(await paused()).toMatchObject({ chainId: sent.messageId, status: 'paused', hops: 1, budget: 1 });
  const answerTo = (queryId: string) =>
    tg.waitFor((c) => c.method === 'answerCallbackQuery' && c.body.callback_query_id === queryId, 0);

  const refused = tg.userPresses({ chatId: CHAT, fromId: STRANGER, messageId: line!.messageId, button: 'Continue' });
  await answerTo(refused);
  expect(tg.callbackAnswers.at(-1)).toEqual({
    queryId: refused,
    text: 'You are not allowed to continue agents in this chat.',
  });
  expect(await paused()).toMatchObject({ status: 'paused', hops: 1, budget: 1, continues: 0 });
  expect(await daemon.api['wakes.list']({})).toHaveLength(2);

  const pressed = tg.userPresses({ chatId: CHAT, fromId: OPERATOR, messageId: line!.messageId, button: 'Continue' });
  await answerTo(pressed);
  expect(tg.callbackAnswers.at(-1)).toEqual({ queryId: pressed, text: 'Continued.' });
  // The same rule as chains.continue: another budget, and the held hand-back delivered.
  expect(await paused()).toMatchObject({ status: 'open', budget: 2, continues: 1, heldMessageId: null });
  const wakes = await allTerminal(daemon, 3);
  expect(wakes[2]).toMatchObject({ agentId: 'demo', cause: 'hand_back', hop: 2, status: 'reply_sent' });
  await tg.waitFor((c) => c.method === 'editMessageText' && c.body.message_id === line!.messageId, 0);
  expect(tg.chat(CHAT).find((m) => m.messageId === line!.messageId)).toMatchObject({
    text: '▶ Agents paused after 1 hand-off · continued by @user502.',
    keyboard: null,
  });
  // Demo's final answer reaches the chat like any reply.
  await tg.waitFor((c) => c.method === 'sendMessage' && String(c.body.text).includes('Helper answered:'), since);

  // A late press on the old button (a client that still shows it): answered, nothing changes.
  const data = (pauseCall.body.reply_markup as { inline_keyboard: { callback_data: string }[][] })
    .inline_keyboard[0]![0]!.callback_data;
  const again = tg.userPresses({ chatId: CHAT, fromId: OPERATOR, messageId: line!.messageId, data });
  await answerTo(again);
  expect(tg.callbackAnswers.at(-1)?.text).toBe('These agents are no longer paused.');
  expect(await paused()).toMatchObject({ budget: 2, continues: 1 });
});
