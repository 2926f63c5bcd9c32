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
    `bash -c 'agentteam agent send --target "#general" --content "ok"'`,
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
    // issue 41: a login shell first runs /etc/profile, ~/.bash_profile, ~/.profile — files an agent may have written.
    ['a login-shell wrapper (bash -lc)', `bash -lc 'agentteam agent send --target "#general" --content "ok"'`],
    ['a login-shell wrapper (sh -lc)', `sh -lc 'agentteam agent react --message-id m_1 --emoji 👍'`],
    ['a login-shell wrapper (bash -l -c)', `bash -l -c 'agentteam agent send --target x --content hi'`],
    ['a login-shell wrapper (bash --login -c)', `bash --login -c 'agentteam agent send --target x --content hi'`],
    ['a wrapped chain', `bash -c 'agentteam agent send --target x --content hi; rm -rf x'`],
    ['a wrapper with more words', `bash -c 'agentteam agent send --target x --content hi' extra`],
    ['nothing', ''],
  ])('asks for %s', (_what, command) => {
    expect(isAgentToolsCommand(command)).toBe(false);
  });
});

/** issue 29 "The fast path is exact": only the documented options, each once, values plain words. */
describe('isAgentToolsCommand takes only the documented options', () => {
  const send = `agentteam agent send --target "#general" --content hi`;
  const dashes = ['\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\uFE63', '\uFF0D'];
  it.each([
    ['an extra option', `${send} '--renderer-cmd-prefix=touch x'`],
    [
      'an extra option before the documented ones',
      `agentteam agent send '--renderer-cmd-prefix=touch x' --target x --content hi`,
    ],
    ['the launcher switch --gpu-launcher', `${send} --gpu-launcher=/tmp/x`],
    ['the launcher switch --utility-cmd-prefix', `${send} '--utility-cmd-prefix=touch x'`],
    ['--inspect-brk=0', `${send} --inspect-brk=0`],
    ['--inspect', `${send} --inspect`],
    ['a switch as a value', `agentteam agent send --target --inspect --content hi`],
    ['a switch as the last value', `agentteam agent send --target x --content --inspect-brk=0`],
    ['a value starting with -', `agentteam agent send --target x --content -`],
    ['the --name=value form', `agentteam agent send --target=x --content hi`],
    ['a -- separator', `${send} -- --inspect`],
    ['a positional word', `${send} extra`],
    ['a single-dash switch', `${send} -v`],
    ['a newline between words', `${send}\n--inspect`],
    ['a backtick', `${send} \`--inspect\``],
    ['$()', `${send} $(echo --inspect)`],
    ['an env assignment prefix', `FOO=1 ${send}`],
    ['a glob', `${send} --inspect*`],
    ['a repeated option', `${send} --content again`],
    ['a repeated flag', `${send} --allow-cross-target --allow-cross-target`],
    ['a missing required option (send)', `agentteam agent send --content hi`],
    ['a missing value', `agentteam agent send --target x --content`],
    ['a missing required option (react)', `agentteam agent react --emoji 👍`],
    ['an option of the other command', `agentteam agent react --message-id m --emoji 👍 --target x`],
    ['a wrapped extra option', `bash -c 'agentteam agent send --target x --content hi --inspect'`],
    ...dashes.map((d) => [
      `U+${d.codePointAt(0)?.toString(16).toUpperCase()} as option dashes`,
      `${send} ${d}${d}inspect`,
    ]),
    ...dashes.map((d) => [
      `U+${d.codePointAt(0)?.toString(16).toUpperCase()} starting a value`,
      `agentteam agent send --target x --content ${d}${d}inspect`,
    ]),
    ...dashes.map((d) => [
      `U+${d.codePointAt(0)?.toString(16).toUpperCase()} in a required option`,
      `agentteam agent send ${d}${d}target x --content hi`,
    ]),
  ])('asks for %s', (_what, command) => {
    expect(isAgentToolsCommand(command)).toBe(false);
  });

  it('still takes each documented form', () => {
    expect(isAgentToolsCommand(`${send} --allow-cross-target`)).toBe(true);
    expect(isAgentToolsCommand(`agentteam agent send --allow-cross-target --content hi --target x`)).toBe(true);
    expect(isAgentToolsCommand(`agentteam agent send --target x --content 'a -- b --inspect'`)).toBe(true);
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
