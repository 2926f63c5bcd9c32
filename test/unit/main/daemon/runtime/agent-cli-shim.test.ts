/**
 * issue 14: `agentteam` on the runtimes' PATH. The shim is run for real by /bin/sh: paths and
 * arguments with spaces, quotes and `$` reach the launched program byte for byte; the shim is
 * owner-executable and rewritten only when stale.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentCliTrusted,
  installAgentCliShim,
  prepareAgentCli,
  renderAgentCliShim,
  withDirOnPath,
  type AgentCliLauncher,
} from '../../../../../main/daemon/runtime/agent-cli-shim.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

let dir: TempDir;
beforeEach(() => (dir = makeTempDir("agentteam shim 'q' $x-")));
afterEach(() => dir.remove());

/** A launcher whose "CLI" prints the arguments it was given as JSON. */
function echoLauncher(root: string): AgentCliLauncher {
  const script = join(root, "echo args's dir", 'print $args.mjs');
  mkdirSync(join(root, "echo args's dir"), { recursive: true });
  writeFileSync(script, 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
  return { command: process.execPath, args: ['--no-warnings', script] };
}

describe.skipIf(process.platform === 'win32')('the POSIX shim', () => {
  it('runs the launcher with the agent’s arguments exactly, from a path with spaces and quotes', () => {
    const data = join(dir.path, 'data dir');
    const bin = installAgentCliShim(data, echoLauncher(dir.path));
    expect(bin).toBe(join(data, 'bin'));
    const shim = join(bin, 'agentteam');
    expect(statSync(shim).mode & 0o777).toBe(0o700);
    const args = ['agent', 'send', '--target', '#general', '--content', `it's "done" $HOME \`x\` ; rm -rf /\nline 2`];
    const out = execFileSync(shim, args, { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(args);
    // Found by name through PATH, as an agent's shell finds it.
    const env = withDirOnPath({ PATH: process.env.PATH ?? '/usr/bin:/bin' }, bin, 'linux');
    expect(
      JSON.parse(execFileSync('/bin/sh', ['-c', 'agentteam agent react --emoji "👍"'], { env, encoding: 'utf8' })),
    ).toEqual(['agent', 'react', '--emoji', '👍']);
  });

  it('is left alone when current, rewritten when stale, and its mode mended', () => {
    const data = join(dir.path, 'data');
    const launcher = echoLauncher(dir.path);
    const shim = join(installAgentCliShim(data, launcher), 'agentteam');
    const first = statSync(shim);
    installAgentCliShim(data, launcher);
    expect(statSync(shim).ino).toBe(first.ino); // not rewritten

    chmodSync(shim, 0o600);
    installAgentCliShim(data, launcher);
    expect(statSync(shim).mode & 0o777).toBe(0o700);

    // An install that moved: the old path is replaced, atomically (a new file).
    const moved = { command: process.execPath, args: ['/elsewhere/cli.js'] };
    installAgentCliShim(data, moved);
    expect(readFileSync(shim, 'utf8')).toBe(renderAgentCliShim(moved, 'linux'));
    expect(readFileSync(shim, 'utf8')).toContain('\'/elsewhere/cli.js\' "$@"');
  });
});

describe('the Windows shim (rendered; cmd.exe cannot run here)', () => {
  it('quotes every word, keeps % literal and passes the arguments on', () => {
    const text = renderAgentCliShim(
      { command: 'C:\\Program Files\\AgentTeam\\agentteam-desktop.exe', args: ['--agentteam-cli', '50%'] },
      'win32',
    );
    expect(text.split('\r\n')).toContain(
      '"C:\\Program Files\\AgentTeam\\agentteam-desktop.exe" "--agentteam-cli" "50%%" %*',
    );
  });

  it('refuses a word cmd.exe cannot quote', () => {
    expect(() => renderAgentCliShim({ command: 'C:\\a"b.exe', args: [] }, 'win32')).toThrow(/cannot put/);
  });
});

describe('withDirOnPath', () => {
  it('puts the folder first, once', () => {
    expect(withDirOnPath({ PATH: '/usr/bin:/x/bin:/bin', A: '1' }, '/x/bin', 'linux')).toEqual({
      PATH: '/x/bin:/usr/bin:/bin',
      A: '1',
    });
  });

  it('never adds an empty entry (which would mean the current folder)', () => {
    expect(withDirOnPath({}, '/x/bin', 'linux')).toEqual({ PATH: '/x/bin' });
    expect(withDirOnPath({ PATH: '' }, '/x/bin', 'darwin')).toEqual({ PATH: '/x/bin' });
  });

  it('keeps Windows’ own spelling of the key and its separator', () => {
    expect(withDirOnPath({ Path: 'C:\\Windows' }, 'C:\\data\\bin', 'win32')).toEqual({
      Path: 'C:\\data\\bin;C:\\Windows',
    });
  });
});

describe('prepareAgentCli', () => {
  const warnings: string[] = [];
  const log = { warn: (m: string) => void warnings.push(m) };
  beforeEach(() => (warnings.length = 0));

  it('returns the shim written when a launcher is given', () => {
    const cli = prepareAgentCli(dir.path, echoLauncher(dir.path), [{ id: 'a', agentTools: 'cli' }], log);
    expect(cli?.dir).toBe(join(dir.path, 'bin'));
    expect(warnings).toEqual([]);
  });

  it('without a launcher, names the problem only when an agent needs the CLI', () => {
    expect(prepareAgentCli(dir.path, undefined, [{ id: 'a', agentTools: 'mcp' }], log)).toBeUndefined();
    expect(warnings).toEqual([]);
    prepareAgentCli(dir.path, undefined, [{ id: 'a', agentTools: 'cli' }], log);
    expect(warnings).toEqual([
      'agentteam is not on the agents\' PATH: this daemon was started without the agentteam CLI; "agentTools": "cli" agents cannot reply',
    ]);
  });
});

describe.skipIf(process.platform === 'win32')('agentCliTrusted: when the agent’s own command may go unasked', () => {
  it('the shim as written, nothing it runs inside the workspace', () => {
    const launcher = echoLauncher(dir.path);
    const data = join(dir.path, 'data');
    const cli = prepareAgentCli(data, launcher, [], { warn: () => undefined });
    if (cli === undefined) throw new Error('no shim');
    const workspace = join(dir.path, 'work');
    mkdirSync(workspace);
    expect(agentCliTrusted(cli, workspace)).toBe(true);
    // The default workspace is the data dir itself: the shim is there, and it is checked.
    expect(agentCliTrusted(cli, data)).toBe(true);
    writeFileSync(cli.file, '#!/bin/sh\nrm -rf "$HOME"\n');
    expect(agentCliTrusted(cli, workspace)).toBe(false);
    installAgentCliShim(data, launcher);
    expect(agentCliTrusted(cli, workspace)).toBe(true);
  });

  it('not when the workspace holds a file the shim runs (an agent working on this very install)', () => {
    const launcher = echoLauncher(dir.path); // its script lives under dir.path
    const cli = prepareAgentCli(join(dir.path, 'data'), launcher, [], { warn: () => undefined });
    if (cli === undefined) throw new Error('no shim');
    expect(agentCliTrusted(cli, dir.path)).toBe(false);
    expect(agentCliTrusted(cli, join(dir.path, "echo args's dir"))).toBe(false);
  });
});
