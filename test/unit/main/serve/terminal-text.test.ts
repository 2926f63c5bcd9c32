/** issue 16 "Inputs": agent content printed by `agentteam messages` (text mode) cannot drive the terminal. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/serve/cli-main.js';
import type { ServeServer } from '../../../../main/serve/serve-server.js';
import { escapeForTerminal } from '../../../../main/serve/terminal-text.js';
import { createScriptedDaemon } from '../../../fixtures/scripted-daemon.js';

// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

describe('escapeForTerminal', () => {
  it.each([
    ['clear screen', '\u001b[2J\u001b[Hhi', '\\x1b[2J\\x1b[Hhi'],
    ['OSC 52 clipboard write (BEL-terminated)', '\u001b]52;c;cm0gLXJmIH4=\u0007', '\\x1b]52;c;cm0gLXJmIH4=\\x07'],
    ['carriage return overwriting a line', 'safe\rEVIL', 'safe\\x0dEVIL'],
    ['C1 CSI and DEL', 'a\u009b2Jb\u007f', 'a\\x9b2Jb\\x7f'],
    ['bidi override', 'invoice \u202egpj.exe', 'invoice \\u{202e}gpj.exe'],
    ['line breaks become spaces', 'one\ntwo\r\nthree', 'one two three'],
  ])('%s', (_name, input, shown) => {
    expect(escapeForTerminal(input)).toBe(shown);
    expect(escapeForTerminal(input)).not.toMatch(ANY_CONTROL);
  });

  it('leaves ordinary text alone (CJK, emoji, tabs shown escaped, quotes, backslashes)', () => {
    expect(escapeForTerminal('你好 👍 "q" C:\\path')).toBe('你好 👍 "q" C:\\path');
    expect(escapeForTerminal('a\tb')).toBe('a\\x09b');
  });
});

describe('agentteam messages (text mode)', () => {
  it('prints agent content with its control characters escaped; --json keeps the exact content', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cli-escape-'));
    const daemon = createScriptedDaemon();
    let stop = (_s: string): void => undefined;
    let listening = (_s: ServeServer): void => undefined;
    const ready = new Promise<ServeServer>((r) => (listening = r));
    const exit = runCli(['serve', '--data-dir', dataDir, '--port', '0'], {
      io: { out: () => undefined, err: () => undefined },
      createDaemon: async () => daemon,
      serve: { rendererDir: null, stopRequested: new Promise<string>((r) => (stop = r)), onListening: listening },
    });
    try {
      await ready;
      const evil = 'done\u001b]52;c;ZXZpbA==\u0007\u001b[2J';
      await daemon.api['messages.send']({ target: '#general', content: evil });
      const out: string[] = [];
      const io = { out: (l: string) => void out.push(l), err: () => undefined };
      expect(await runCli(['messages', '--data-dir', dataDir, '--target', '#general'], { io })).toBe(0);
      expect(out).toHaveLength(1);
      expect(out[0]).not.toMatch(ANY_CONTROL);
      expect(out[0]).toContain('done\\x1b]52;c;ZXZpbA==\\x07\\x1b[2J');
      const json: string[] = [];
      await runCli(['messages', '--data-dir', dataDir, '--target', '#general', '--json'], {
        io: { out: (l) => void json.push(l), err: () => undefined },
      });
      expect((JSON.parse(json[0] ?? '[]') as Array<{ content: string }>)[0]?.content).toBe(evil);
    } finally {
      stop('SIGTERM');
      await exit;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
