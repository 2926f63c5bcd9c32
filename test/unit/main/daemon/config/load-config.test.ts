import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CONFIG_FILE,
  firstInvalidUtf8,
  formatJsonPath,
  loadConfig,
  type ConfigLoad,
} from '../../../../../main/daemon/config/load-config.js';
import type { DaemonLog } from '../../../../../main/daemon/daemon-log.js';
import { ConfigSource } from '../../../../../main/daemon/config/config-source.js';
import { agentConfigIssues } from '../../../../../main/daemon/runtime/registry.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';
import { NOBODY_UID, privilegeDrop, runAsNobody } from '../../../../fixtures/unprivileged.js';

let dir: TempDir;
beforeEach(() => (dir = makeTempDir('agentteam-config-')));
afterEach(() => dir.remove());

const file = () => join(dir.path, CONFIG_FILE);

function write(content: unknown): void {
  writeFileSync(file(), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  // An old mtime, so a rewrite (even with the same bytes) would show.
  utimesSync(file(), new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
}

function recordingLog(): DaemonLog & { lines: Array<[string, string, Record<string, unknown> | undefined]> } {
  const lines: Array<[string, string, Record<string, unknown> | undefined]> = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push([level, message, fields]);
  return { lines, debugEnabled: true, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}

function failure(r: ConfigLoad) {
  if (r.ok) throw new Error('expected the config to be refused');
  return r.error;
}

/** Loads and checks that nothing on disk changed: same listing, same bytes, same mtime. */
function loadUnchanged(log?: DaemonLog): ConfigLoad {
  const listing = readdirSync(dir.path);
  const before = readFileSync(file());
  const mtime = statSync(file()).mtimeMs;
  const r = loadConfig(dir.path, { log });
  expect(readdirSync(dir.path)).toEqual(listing);
  expect(readFileSync(file())).toEqual(before);
  expect(statSync(file()).mtimeMs).toBe(mtime);
  return r;
}

describe('loadConfig', () => {
  it('a missing file is not an error: defaults, and nothing is created', () => {
    const r = loadConfig(dir.path);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.exists).toBe(false);
    expect(r.config.agents).toEqual([]);
    expect(r.config.limits.pendingCapacity).toBe(64);
    expect(readdirSync(dir.path)).toEqual([]);
  });

  it('loads the DESIGN.md example with the watchdog spec defaults filled in', () => {
    write({
      agents: [
        {
          id: 'claude',
          name: 'Claude',
          runtime: 'claude-code',
          command: 'claude',
          args: [],
          env: {},
          cwd: '.',
          model: null,
        },
      ],
      channels: { local: { silenceWatchdog: { thresholdSeconds: 45 }, responseDelivery: { retryCount: 1 } } },
    });
    const r = loadUnchanged();
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.exists).toBe(true);
    expect(r.config.agents[0]).toMatchObject({ id: 'claude', runtime: 'claude-code', language: 'en' });
    expect(r.config.channels.local?.silenceWatchdog).toEqual({
      enabled: true,
      thresholdSeconds: 45,
      maxBeacons: 5,
      message: '🧠 Working…',
      escalationMessage: '⚠️ Extended processing — still working. Response may be delayed.',
      resetOnStreaming: true,
      resetOnTypingOnly: false,
    });
    expect(r.config.channels.local?.responseDelivery).toEqual({
      enabled: true,
      retryCount: 1,
      retryDelayMs: 3000,
      alertOnFailure: true,
      alertOnNoResponse: true,
      preserveUndelivered: true,
    });
  });

  // issue 25: the hop budget of a chain of agents
  it('limits.agentHops defaults to 6 and takes a file value', () => {
    write({ agents: [] });
    const r = loadConfig(dir.path);
    expect(r.ok && r.config.limits.agentHops).toBe(6);
    write({ agents: [], limits: { agentHops: 2 } });
    const two = loadConfig(dir.path);
    expect(two.ok && two.config.limits.agentHops).toBe(2);
  });

  it.each<[unknown, RegExp]>([
    [0, /limits\.agentHops: .*(>=|at least|too small).*1/i],
    [2.5, /limits\.agentHops: .*integer/i],
    ['6', /limits\.agentHops: .*number/i],
  ])('refuses limits.agentHops %j naming the file and the path, and changes nothing', (value, message) => {
    write({ agents: [], limits: { agentHops: value } });
    const e = failure(loadUnchanged());
    expect(e.code).toBe('config_invalid');
    expect(e.message.startsWith(`${file()}: `)).toBe(true);
    expect(e.message).toMatch(message);
  });

  // issue 43, issue 39 "Plug-ins": whether a runtime runs over SSH is its descriptor's; the daemon's load checks it.
  it('refuses "host" on a runtime whose descriptor does not run over SSH, naming agents[i].runtime, and changes nothing', () => {
    const far = { id: 'far', name: 'Far', host: 'ssh://dev@box', cwd: '/srv/repo' };
    write({
      agents: [
        { ...far, runtime: 'claude-code' },
        { ...far, id: 'far2', runtime: 'opencode' },
      ],
    });
    // The shared schema alone has no rule on the runtime: the descriptors decide (runtime/registry.ts).
    expect(loadConfig(dir.path).ok).toBe(true);
    const listing = readdirSync(dir.path);
    const e = failure(loadConfig(dir.path, { agentIssues: agentConfigIssues }));
    expect(readdirSync(dir.path)).toEqual(listing);
    expect(e.code).toBe('config_invalid');
    expect(e.message).toBe(
      `${file()}: agents[1].runtime: "host" is supported for the runtimes "claude-code", "codex", "acp" (this agent's is "opencode"); remove "host" to run it on this machine`,
    );
    expect(e.problems.map((p) => p.path)).toEqual(['agents[1].runtime']);
    // The daemon opens its config with the registry's rules: it refuses to start on this file.
    expect(() => ConfigSource.open(dir.path, undefined, agentConfigIssues)).toThrow(/agents\[1\]\.runtime: "host"/);
    // Reported beside the schema's own issues of the same entry, each with its path.
    write({ agents: [{ ...far, runtime: 'opencode', cwd: 'repo' }] });
    expect(failure(loadConfig(dir.path, { agentIssues: agentConfigIssues })).problems.map((p) => p.path)).toEqual([
      'agents[0].cwd',
      'agents[0].runtime',
    ]);
  });

  it('refuses an unknown runtime naming the file, the JSON path and the expectation, and changes nothing', () => {
    write({ agents: [{ id: 'claude', name: 'Claude', runtime: 'gpt' }] });
    const e = failure(loadUnchanged());
    expect(e.code).toBe('config_invalid');
    expect(e.message).toBe(
      `${file()}: agents[0].runtime: expected one of claude-code|codex|opencode|demo|acp, got "gpt"`,
    );
    expect(
      e.message.endsWith(
        'agentteam.json: agents[0].runtime: expected one of claude-code|codex|opencode|demo|acp, got "gpt"',
      ),
    ).toBe(true);
    expect(e.problems).toEqual([
      { path: 'agents[0].runtime', expectation: 'expected one of claude-code|codex|opencode|demo|acp, got "gpt"' },
    ]);
  });

  it.each<[string, unknown, string]>([
    ['a wrong type', { agents: {} }, 'agents: expected an array, got an object'],
    ['a non-object top level', [], '(top level): expected an object, got an array'],
    [
      'a missing required key',
      { agents: [{ id: 'claude', runtime: 'codex' }] },
      'agents[0].name: is required (a string)',
    ],
    ['an unknown key', { agents: [], bogus: 1 }, 'bogus: unknown key; remove it or check its spelling'],
    [
      'a nested unknown key',
      { channels: { local: { silenceWatchdog: { threshold: 30 } } } },
      'channels.local.silenceWatchdog.threshold: unknown key',
    ],
    [
      'a number out of range',
      { channels: { local: { silenceWatchdog: { thresholdSeconds: 0 } } } },
      'channels.local.silenceWatchdog.thresholdSeconds: expected a number > 0, got 0',
    ],
    [
      'a non-integer',
      { channels: { local: { responseDelivery: { retryCount: 1.5 } } } },
      'channels.local.responseDelivery.retryCount: expected an integer, got 1.5',
    ],
    [
      'a bad agent id',
      { agents: [{ id: 'Bad Id', name: 'x', runtime: 'demo' }] },
      'agents[0].id: expected lower-case letters, digits, ".", "-" or "_" (1–64), starting with a letter or digit, got "Bad Id"',
    ],
    [
      'an empty name',
      { agents: [{ id: 'a', name: '', runtime: 'demo' }] },
      'agents[0].name: expected at least 1 character, got ""',
    ],
    [
      'a non-string env value',
      { agents: [{ id: 'a', name: 'A', runtime: 'demo', env: { ANTHROPIC_BASE_URL: 8080 } }] },
      'agents[0].env.ANTHROPIC_BASE_URL: expected a string, got 8080',
    ],
    [
      'a duplicate agent id',
      {
        agents: [
          { id: 'a', name: 'A', runtime: 'demo' },
          { id: 'a', name: 'B', runtime: 'codex' },
        ],
      },
      'agents[1].id: duplicate agent id "a"',
    ],
    [
      'a channel name needing quotes',
      { channels: { 'my chan': { silenceWatchdog: { maxBeacons: -1 } } } },
      'channels["my chan"].silenceWatchdog.maxBeacons: expected a number >= 0, got -1',
    ],
    [
      'a bad language',
      { agents: [{ id: 'a', name: 'A', runtime: 'demo', language: 'fr' }] },
      'agents[0].language: expected one of en|zh-CN, got "fr"',
    ],
    [
      'an unknown agent-tools surface (issue 14)',
      { agents: [{ id: 'a', name: 'A', runtime: 'claude-code', agentTools: 'shell' }] },
      'agents[0].agentTools: expected one of mcp|cli, got "shell"',
    ],
  ])('refuses %s with a line naming the path and expectation', (_what, content, line) => {
    write(content);
    const e = failure(loadUnchanged());
    expect(e.code).toBe('config_invalid');
    expect(e.message).toContain(`${file()}: ${line}`);
  });

  it('reports every problem of an invalid file, one line each, in one error', () => {
    write({ agents: [{ id: 'a', name: 'A', runtime: 'gpt' }], limits: { pendingCapacity: 'many' } });
    const e = failure(loadUnchanged());
    expect(e.message.split('\n')).toEqual([
      `${file()}: agents[0].runtime: expected one of claude-code|codex|opencode|demo|acp, got "gpt"`,
      `${file()}: limits.pendingCapacity: expected a number, got "many"`,
    ]);
  });

  it('refuses malformed JSON naming the file, line and column, and changes nothing', () => {
    write('{\n  "agents": [\n    { "id": "x" \n  ]\n}\n');
    const e = failure(loadUnchanged());
    expect(e.code).toBe('config_malformed_json');
    expect(e.position).toEqual({ line: 4, column: 3 });
    expect(e.message).toMatch(new RegExp(`^${file().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:4:3: malformed JSON: `));
    expect(e.message).toContain('never rewrites');
  });

  it('issue 39: accepts comments and trailing commas (JSON with comments), and locates what is still malformed', () => {
    write('{\n  // the team\n  "agents": [], /* none yet */\n}');
    expect(loadUnchanged()).toMatchObject({ ok: true, config: { agents: [] } });
    write('{"agents": [],}');
    expect(loadUnchanged().ok).toBe(true);
    write('{"agents": [] /* not closed }');
    expect(failure(loadUnchanged())).toMatchObject({
      code: 'config_malformed_json',
      position: { line: 1, column: 15 },
    });
    write('');
    expect(failure(loadUnchanged())).toMatchObject({ code: 'config_malformed_json', position: { line: 1, column: 1 } });
    write('{\n  "agents": [\n');
    expect(failure(loadUnchanged())).toMatchObject({ code: 'config_malformed_json', position: { line: 3, column: 1 } });
  });

  it('accepts a UTF-8 byte order mark', () => {
    write('\uFEFF{"agents": []}');
    expect(loadUnchanged().ok).toBe(true);
  });

  it('issue 41: refuses bytes that are not UTF-8, naming the file and the byte offset, and changes nothing', () => {
    for (const [bad, offset] of [
      [[0xff], 12],
      [[0xc3], 12], // a truncated 2-byte sequence
      [[0xed, 0xa0, 0x80], 12], // an encoded surrogate
      [[0xc0, 0xaf], 12], // an overlong "/"
    ] as const) {
      writeFileSync(file(), Buffer.concat([Buffer.from('{"agents":["'), Buffer.from(bad), Buffer.from('"]}')]));
      const e = failure(loadUnchanged());
      expect(e.code).toBe('config_unreadable');
      expect(e.message).toContain(`${file()}: not valid UTF-8 at byte ${offset}`);
    }
    writeFileSync(file(), '{"agents": [], "x": "é ✓ 😀"}');
    expect(failure(loadUnchanged()).code).toBe('config_invalid');
  });

  it('finds the first invalid UTF-8 byte exactly (agrees with the strict decoder on random bytes)', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
    for (let n = 0; n < 2000; n += 1) {
      const bytes = Uint8Array.from({ length: 1 + (n % 9) }, () => (n % 3 === 0 ? 0x80 | (rnd() & 0x7f) : rnd()));
      const at = firstInvalidUtf8(bytes);
      let valid = true;
      try {
        decoder.decode(bytes);
      } catch {
        valid = false;
      }
      expect(at === -1).toBe(valid);
      if (at >= 0) {
        expect(() => decoder.decode(bytes.subarray(0, at))).not.toThrow();
      }
    }
  });

  it('reports an unreadable path (a directory) as config_unreadable', () => {
    mkdirSync(file());
    const e = failure(loadConfig(dir.path));
    expect(e.code).toBe('config_unreadable');
    expect(e.message).toContain(file());
  });

  it('reports a file without read permission as config_unreadable, naming the file and what to do', (ctx) => {
    write({});
    const expectClear = (e: { code: string; message: string }) => {
      expect(e.code).toBe('config_unreadable');
      expect(e.message).toContain(file());
      expect(e.message).toContain('EACCES');
      expect(e.message).toContain('check that it is a readable file');
    };
    if (process.getuid?.() !== 0) {
      chmodSync(file(), 0o000);
      return expectClear(failure(loadConfig(dir.path)));
    }
    // Root reads any file whatever its mode: the subject runs as nobody, who may traverse the
    // temp dir and read the script there, but not the root-owned 0600 config.
    const drop = privilegeDrop();
    if (!drop.ok) return ctx.skip(drop.reason);
    chmodSync(dir.path, 0o755);
    chmodSync(file(), 0o600);
    const script = join(dir.path, 'load-config-child.ts');
    const subject = pathToFileURL(join(import.meta.dirname, '../../../../../main/daemon/config/load-config.ts')).href;
    writeFileSync(
      script,
      [
        `import { loadConfig } from ${JSON.stringify(subject)};`,
        'const r = loadConfig(process.argv[2] ?? "");',
        'console.log(JSON.stringify({ uid: process.getuid?.(), ...(r.ok ? { ok: true } : { ok: false, code: r.error.code, message: r.error.message }) }));',
      ].join('\n'),
      { mode: 0o644 },
    );
    const run = runAsNobody(drop, script, [dir.path], dir.path);
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { uid: number; ok: boolean; code: string; message: string };
    expect(out.uid).toBe(NOBODY_UID);
    expect(out.ok).toBe(false);
    expectClear(out);
  });

  it('accepts legacy visible-reply toggles at the top level and per agent, ignores them and logs them once (contract §7)', () => {
    write({
      visibleReplyContract: { enabled: false },
      visible_reply_contract_enabled: false,
      agents: [
        { id: 'a', name: 'A', runtime: 'demo', visibleReplyContract: { enabled: false } },
        { id: 'b', name: 'B', runtime: 'codex', visible_reply_contract_enabled: 'false', visibleReplyContract: false },
      ],
    });
    const log = recordingLog();
    const r = loadUnchanged(log);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.legacyToggles).toEqual([
      'visibleReplyContract',
      'visible_reply_contract_enabled',
      'agents[0].visibleReplyContract',
      'agents[1].visibleReplyContract',
      'agents[1].visible_reply_contract_enabled',
    ]);
    const warnings = log.lines.filter(([level]) => level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.[1]).toMatch(/always on/);
    expect(warnings[0]?.[2]).toMatchObject({ file: file(), paths: r.legacyToggles });
  });

  it('logs nothing for a config without legacy toggles', () => {
    write({ agents: [] });
    const log = recordingLog();
    loadUnchanged(log);
    expect(log.lines).toEqual([]);
  });
});

describe('formatJsonPath', () => {
  it('writes dotted names, indexes and quoted odd keys', () => {
    expect(formatJsonPath([])).toBe('(top level)');
    expect(formatJsonPath(['agents', 0, 'env', 'A_B'])).toBe('agents[0].env.A_B');
    expect(formatJsonPath(['channels', 'my-chan', 'x'])).toBe('channels["my-chan"].x');
  });
});
