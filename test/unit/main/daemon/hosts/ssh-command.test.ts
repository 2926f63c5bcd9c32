import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  clientArgs,
  masterArgs,
  remoteCommand,
  remoteWord,
  shellQuote,
} from '../../../../../main/daemon/hosts/ssh-command.js';
import { classifySshFailure, sshFailureSentence } from '../../../../../main/daemon/hosts/ssh-failure.js';

const host = { user: 'dev', hostname: 'box', port: 2222 };
const setup = { controlDir: '/tmp/ctl', configFile: '/t/ssh_config' };
/** What a POSIX shell makes of one word (the remote login shell does the same). */
const shellSees = (word: string): string => execFileSync('sh', ['-c', `printf %s ${word}`], { encoding: 'utf8' });

describe('ssh command lines (issue 43)', () => {
  it.each(["it's", 'a b', '$(rm -rf /)', '`x`', 'new\nline', '', '--flag', 'ünïcode "q"'])(
    'quotes %j so the remote shell reads it back unchanged',
    (word) => {
      expect(shellSees(shellQuote(word))).toBe(word);
    },
  );

  it('maps a path in the local runtime dir to the same path in the remote one, and only those', () => {
    expect(remoteWord('/data/runtimes/a/mcp.json', '/data/runtimes/a')).toBe('"$AGENTTEAM_RUNTIME_DIR"/mcp.json');
    expect(remoteWord('/data/runtimes/a', '/data/runtimes/a')).toBe('"$AGENTTEAM_RUNTIME_DIR"');
    expect(remoteWord('/data/runtimes/ab/x', '/data/runtimes/a')).toBe('/data/runtimes/ab/x');
  });

  it('every connection is batch mode, strict host keys, over the master socket; the master holds no command', () => {
    const client = clientArgs(host, setup, ['-R', '127.0.0.1:1:127.0.0.1:2'], 'true');
    for (const o of ['BatchMode=yes', 'StrictHostKeyChecking=yes', 'ControlMaster=no']) expect(client).toContain(o);
    expect(client.slice(0, 2)).toEqual(['-F', '/t/ssh_config']);
    expect(client.slice(-3)).toEqual(['--', 'box', 'true']);
    expect(client.join(' ')).toContain('-p 2222 -l dev');
    const master = masterArgs(host, setup);
    expect(master).toContain('ControlMaster=yes');
    expect(master).toContain('-N');
    expect(master.find((a) => a.startsWith('ControlPath='))).toBe(client.find((a) => a.startsWith('ControlPath=')));
  });

  it('the remote command passes env, args and cwd through the shell unchanged, runtime dir paths mapped', () => {
    const cmd = remoteCommand({
      agentId: 'a1',
      command: '/opt/bin/claude',
      args: ['--mcp-config', '/d/runtimes/a1/mcp.json', "it's"],
      env: { HOME: '/d/runtimes/a1/home', KEY: 'v $x `y`', 'BAD-NAME': 'x' },
      cwd: '/srv/my repo',
      localRuntimeDir: '/d/runtimes/a1',
    });
    expect(cmd).toContain(`HOME="$AGENTTEAM_RUNTIME_DIR"/home`);
    expect(cmd).toContain(`KEY='v $x \`y\`'`);
    expect(cmd).not.toContain('BAD-NAME');
    expect(cmd).toContain(`cd '/srv/my repo'`);
    expect(cmd).toContain(`/opt/bin/claude --mcp-config "$AGENTTEAM_RUNTIME_DIR"/mcp.json 'it'\\''s'`);
  });

  it('reads OpenSSH’s own words: host key, sign-in, anything else is the host not answering', () => {
    expect(classifySshFailure('Host key verification failed.')).toBe('host_key_unknown');
    expect(
      classifySshFailure('No ED25519 host key is known for [127.0.0.1]:22 and you have requested strict checking.'),
    ).toBe('host_key_unknown');
    expect(classifySshFailure('dev@box: Permission denied (publickey).')).toBe('auth_failed');
    expect(classifySshFailure('ssh: connect to host box port 22: Connection refused')).toBe('host_unreachable');
    expect(classifySshFailure('')).toBe('host_unreachable');
    expect(sshFailureSentence('host_key_unknown', host, '')).toContain('ssh-keyscan -p 2222 box');
  });
});
