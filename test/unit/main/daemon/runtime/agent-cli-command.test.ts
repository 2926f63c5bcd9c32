/**
 * issue 14 "Our MCP tools never need approval", for their CLI rendering: only a command that is
 * exactly `agentteam agent send|react …` is allowed unasked; anything that could run something
 * else (chaining, substitution, redirection, expansion) still asks the operator.
 */
import { describe, expect, it } from 'vitest';
import { cliSendCommand } from '../../../../../main/daemon/prompt/tool-names.js';
import { isAgentToolsCommand, simpleCommandWords } from '../../../../../main/daemon/runtime/agent-cli-command.js';

describe('isAgentToolsCommand', () => {
  it.each([
    `agentteam agent send --target "#general" --content "Done: the tests pass."`,
    `agentteam agent send --target '#general:ab12' --content 'it'\\''s done'`,
    `agentteam agent send --target "dm:@op" --content "line 1\nline 2 (quoted newline) & | ; < > are text here"`,
    `agentteam agent send --target "#general" --content "a \\"quote\\" and \\$HOME literally" --allow-cross-target`,
    `agentteam agent react --message-id msg_123 --emoji 👍`,
    `  agentteam   agent send --target "#general" --content 你好  `,
    `bash -lc 'agentteam agent send --target "#general" --content "ok"'`,
  ])('allows %s', (command) => {
    expect(isAgentToolsCommand(command)).toBe(true);
  });

  it.each([
    ['chaining with ;', `agentteam agent send --target "#general" --content hi; rm -rf x`],
    ['chaining with &&', `agentteam agent send --target "#general" --content hi && rm -rf x`],
    ['a pipe', `agentteam agent send --target "#general" --content - | sh`],
    ['background &', `agentteam agent send --target "#general" --content hi & rm -rf x`],
    ['a newline', `agentteam agent send --target "#general" --content hi\nrm -rf x`],
    ['command substitution $()', `agentteam agent send --target "#general" --content "$(cat ~/.ssh/id_rsa)"`],
    ['backquotes', 'agentteam agent send --target "#general" --content `id`'],
    ['a variable', `agentteam agent send --target "#general" --content $SECRET`],
    ['a variable in double quotes', `agentteam agent send --target "#general" --content "$SECRET"`],
    ['a redirection', `agentteam agent send --target "#general" --content - < /etc/passwd`],
    ['an output redirection', `agentteam agent send --target "#general" --content hi > ~/.bashrc`],
    ['a glob', `agentteam agent send --target "#general" --content *`],
    ['a subshell', `(agentteam agent send --target "#general" --content hi)`],
    ['an env prefix', `PATH=/tmp agentteam agent send --target "#general" --content hi`],
    ['another command', `rm -rf x agentteam agent send`],
    ['the operator command', `agentteam send --target "#general" --text hi`],
    ['another agentteam command', `agentteam approve ap_1`],
    ['a path-qualified impostor', `/tmp/agentteam agent send --target "#general" --content hi`],
    ['an unterminated quote', `agentteam agent send --target "#general --content hi`],
    ['a line continuation', `agentteam agent send --target "#general" \\\n--content hi`],
    ['a comment', `agentteam agent send --target x #; rm -rf x`],
    ['a wrapped chain', `bash -lc 'agentteam agent send --target x --content hi; rm -rf x'`],
    ['a wrapper with more words', `bash -lc 'agentteam agent send --target x --content hi' extra`],
    ['nothing', ''],
  ])('asks for %s', (_what, command) => {
    expect(isAgentToolsCommand(command)).toBe(false);
  });
});

it('the command the prompt renders, filled in as it says, never asks and carries the reply verbatim', () => {
  const reply = "Done: it's fixed — costs $5, see `make test`; 100% & <ok>\nbye";
  const command = cliSendCommand('#general:ab12').replace('<reply>', reply.replaceAll("'", `'\\''`));
  expect(isAgentToolsCommand(command)).toBe(true);
  expect(simpleCommandWords(command)).toEqual([
    'agentteam',
    'agent',
    'send',
    '--target',
    '#general:ab12',
    '--content',
    reply,
  ]);
});

describe('simpleCommandWords', () => {
  it('unquotes like sh', () => {
    expect(simpleCommandWords(`a 'b c' "d \\"e\\" \\\\ \\n" f\\ g ''`)).toEqual([
      'a',
      'b c',
      'd "e" \\ \\n',
      'f g',
      '',
    ]);
  });
});
