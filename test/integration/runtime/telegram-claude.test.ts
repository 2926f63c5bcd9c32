/**
 * End to end with a real runtime CLI (issue 18): Claude Code against the scripted fake model,
 * in a conversation bound to a (fake) Telegram chat. The operator writes from the chat; the
 * message wakes the agent like any other; the agent's `message_send` reply is stored in the
 * local conversation and reaches the chat once, confirmed by Telegram's message_id. And issue 14
 * from the phone: under `permissions: "ask"` (the default) Claude's own permission question is
 * asked in the chat with Allow once / Deny, the operator allows it there, the command runs.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic.js';
import { startFakeTelegram, type FakeTelegram } from '../../fixtures/fake-telegram.js';

const CHAT = 777001;
const OPERATOR = 31337;

describe('Telegram-bound conversation with Claude Code (real CLI, fake model, fake Bot API)', () => {
  let tg: FakeTelegram;
  let model: FakeAnthropic;
  let dir: string;
  let daemon: Daemon;

  beforeAll(async () => {
    tg = await startFakeTelegram();
    model = await startFakeAnthropic();
    dir = await mkdtemp(join(tmpdir(), 'agentteam-tg-claude-'));
    await mkdir(join(dir, 'workspaces', 'claude1'), { recursive: true });
    const config = {
      agents: [
        {
          id: 'claude1',
          name: 'Claude',
          runtime: 'claude-code',
          cwd: 'workspaces/claude1',
          model: 'fake-model',
          env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'fake-key-tg', CLAUDE_CODE_MAX_RETRIES: '0' },
        },
      ],
      channels: {
        telegram: {
          botTokenEnv: 'TG_E2E_TOKEN',
          apiRoot: tg.apiRoot,
          bindings: [{ chatId: CHAT, target: '#general', allowFrom: [OPERATOR] }],
        },
      },
    };
    await writeFile(join(dir, 'agentteam.json'), JSON.stringify(config));
    daemon = await createDaemon({
      dataDir: dir,
      env: { TG_E2E_TOKEN: tg.token },
      channelTuning: { telegram: { pollTimeoutSeconds: 5, sendTimeoutMs: 2000, pollBackoffMs: 100 } },
    });
  }, 60_000);

  afterAll(async () => {
    await daemon?.stop();
    await model?.close();
    await tg?.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('a message from the chat wakes Claude; its message_send reply reaches the chat once', async () => {
    tg.userWrites({ chatId: CHAT, fromId: OPERATOR, text: '@claude1 [[tool]] please answer from my phone' });
    const sent = await tg.waitFor(
      (c) => c.method === 'sendMessage' && String(c.body.text).includes('Reply from the fake model.'),
      0,
      90_000,
    );
    expect(sent.body.chat_id).toBe(CHAT);
    expect(tg.chat(CHAT).map((m) => m.text)).toEqual(['Claude: Reply from the fake model.']);
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages.map((m) => [m.authorKind, m.content])).toEqual([
      ['operator', '@claude1 [[tool]] please answer from my phone'],
      ['agent', 'Reply from the fake model.'],
    ]);
    const [wake] = await daemon.api['wakes.list']({ target: '#general' });
    expect(wake).toMatchObject({ agentId: 'claude1', runtime: 'claude-code', status: 'reply_sent' });
  }, 120_000);

  it('Claude asks to run a command; the operator allows it from the phone; it runs and the reply reaches the chat', async () => {
    const since = tg.calls.length;
    tg.userWrites({
      chatId: CHAT,
      fromId: OPERATOR,
      text: '@claude1 [[shell:touch phone.txt]] create the file please',
    });
    const asked = await tg.waitFor(
      (c) => c.method === 'sendMessage' && c.body.reply_markup !== undefined,
      since,
      90_000,
    );
    expect(String(asked.body.text)).toMatch(/^✋ Claude asks: .*touch phone\.txt/);
    // Claude's Bash has not run: it waits for the operator.
    expect(existsSync(join(dir, 'workspaces', 'claude1', 'phone.txt'))).toBe(false);
    const question = tg.chat(CHAT).find((m) => m.text === asked.body.text);
    if (question === undefined) throw new Error('the question is not shown in the chat');
    tg.userPresses({ chatId: CHAT, fromId: OPERATOR, messageId: question.messageId, button: 'Allow once' });
    await tg.waitFor(
      (c) => c.method === 'sendMessage' && String(c.body.text).startsWith('Claude: Shell result'),
      since,
      90_000,
    );
    expect(existsSync(join(dir, 'workspaces', 'claude1', 'phone.txt'))).toBe(true);
    expect(tg.chat(CHAT).find((m) => m.messageId === question.messageId)).toMatchObject({
      text: `${String(asked.body.text)}\n✅ Allowed by @user${OPERATOR}`,
      keyboard: null,
    });
    const [approval] = await daemon.api['approvals.list']({});
    expect(approval).toMatchObject({ agentId: 'claude1', status: 'allowed', scope: 'once' });
    expect(tg.callbackAnswers.at(-1)?.text).toBe('Allowed.');
  }, 120_000);
});
