import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, renameSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { filter, firstValueFrom, skip } from 'rxjs';
import { ApiError } from '../../../../../shared/api/contract.js';
import { ConfigSource, type ConfigState } from '../../../../../main/daemon/config/config-source.js';
import { ConfigError } from '../../../../../main/daemon/config/load-config.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

let dir: TempDir;
let source: ConfigSource | null = null;
beforeEach(() => (dir = makeTempDir('agentteam-config-source-')));
afterEach(() => {
  source?.close();
  source = null;
  dir.remove();
});

const file = () => join(dir.path, 'agentteam.json');
const threshold = (s: ConfigSource) => s.config.channels.local?.silenceWatchdog.thresholdSeconds;
const write = (text: string) => writeFileSync(file(), text);
const withThreshold = (n: number) =>
  `{\n  "agents": [],\n  "channels": { "local": { "silenceWatchdog": { "thresholdSeconds": ${n} } } }\n}\n`;

/** The next state the source reports. */
const nextState = (s: ConfigSource, where: (state: ConfigState) => boolean = () => true) =>
  firstValueFrom(s.state$.pipe(skip(1), filter(where)));

describe('ConfigSource: agentteam.json watched while the daemon runs', () => {
  it('an editor rename-write (temp file renamed over the original) is picked up', async () => {
    write(withThreshold(45));
    source = ConfigSource.open(dir.path);
    source.watch({ debounceMs: 20 });
    const changed = nextState(source);
    // What vim/VS Code "atomic save" do: a new inode takes the old name.
    writeFileSync(join(dir.path, 'agentteam.json.swp-tmp'), withThreshold(12));
    renameSync(join(dir.path, 'agentteam.json.swp-tmp'), file());
    const state = await changed;
    expect(state.error).toBeNull();
    expect(threshold(source)).toBe(12);
    // ...and the watch survives the new inode: a second edit in place is picked up too.
    const again = nextState(source);
    write(withThreshold(7));
    await again;
    expect(threshold(source)).toBe(7);
  });

  it('an invalid edit keeps the last valid config and surfaces the error (file, JSON path, expected); fixing it clears it', async () => {
    write(withThreshold(30));
    source = ConfigSource.open(dir.path);
    source.watch({ debounceMs: 20 });
    const broken = nextState(source, (s) => s.error !== null);
    write(withThreshold(-1));
    const state = await broken;
    expect(state.error).toBeInstanceOf(ConfigError);
    expect(state.error?.code).toBe('config_invalid');
    expect(state.error?.message).toBe(
      `${file()}: channels.local.silenceWatchdog.thresholdSeconds: expected a number > 0, got -1`,
    );
    expect(threshold(source)).toBe(30);
    // Never rewritten to "repair" it.
    expect(readFileSync(file(), 'utf8')).toBe(withThreshold(-1));

    const malformed = nextState(source, (s) => s.error?.code === 'config_malformed_json');
    write('{ "channels": ');
    expect((await malformed).error?.message).toMatch(/agentteam\.json:1:\d+: malformed JSON/);
    expect(threshold(source)).toBe(30);

    const fixed = nextState(source, (s) => s.error === null);
    write(withThreshold(20));
    await fixed;
    expect(threshold(source)).toBe(20);
  });

  it('write changes only the keys given, keeps the file mode, and reloads at once', () => {
    const text =
      '{\n    "agents": [],\n    "channels": {\n        "local": { "silenceWatchdog": { "thresholdSeconds": 45 } }\n    }\n}\n';
    write(text);
    chmodSync(file(), 0o640);
    source = ConfigSource.open(dir.path);
    source.write([
      { path: ['channels', 'local', 'silenceWatchdog', 'thresholdSeconds'], value: 60 },
      { path: ['channels', 'local', 'responseDelivery', 'retryCount'], value: 3 },
    ]);
    expect(readFileSync(file(), 'utf8')).toBe(
      '{\n    "agents": [],\n    "channels": {\n        "local": { "silenceWatchdog": { "thresholdSeconds": 60 }, "responseDelivery": { "retryCount": 3 } }\n    }\n}\n',
    );
    expect(statSync(file()).mode & 0o777).toBe(0o640);
    expect(threshold(source)).toBe(60);
    expect(source.config.channels.local?.responseDelivery.retryCount).toBe(3);
  });

  it('write is refused while the file holds an unusable edit: the person’s text is never replaced', () => {
    write(withThreshold(45));
    source = ConfigSource.open(dir.path);
    write('{ "channels": { "local": { "silenceWatchdog": { "thresholdSeconds": "soon" } } } }');
    let error: unknown;
    try {
      source.write([{ path: ['channels', 'local', 'silenceWatchdog', 'thresholdSeconds'], value: 10 }]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('config_invalid');
    expect((error as ApiError).message).toContain('channels.local.silenceWatchdog.thresholdSeconds: expected a number');
    expect(readFileSync(file(), 'utf8')).toContain('"soon"');
  });

  it('issue 41: a file that is not UTF-8 is never saved over (it would come back with U+FFFD); the error names the byte', () => {
    write(withThreshold(45));
    source = ConfigSource.open(dir.path);
    // A Latin-1 "é" (0xE9) in a name: valid JSON bytes, not UTF-8.
    const bytes = Buffer.concat([
      Buffer.from('{ "agents": [{ "id": "a", "name": "Ren'),
      Buffer.from([0xe9]),
      Buffer.from('" , "runtime": "demo" }] }'),
    ]);
    writeFileSync(file(), bytes);
    let error: unknown;
    try {
      source.write([{ path: ['channels', 'local', 'silenceWatchdog', 'thresholdSeconds'], value: 10 }]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toContain(`${file()}: not valid UTF-8 at byte 38 (0xe9)`);
    expect(readFileSync(file()).equals(bytes)).toBe(true);
  });

  it('no file yet: a write creates it with only the keys given, private to the person', () => {
    source = ConfigSource.open(dir.path);
    source.write([{ path: ['channels', 'local', 'silenceWatchdog', 'maxBeacons'], value: 2 }]);
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({
      channels: { local: { silenceWatchdog: { maxBeacons: 2 } } },
    });
    expect(statSync(file()).mode & 0o077).toBe(0);
  });

  it('an invalid file at start is refused with its ConfigError (the daemon does not start)', () => {
    write('{ "agents": 3 }');
    expect(() => ConfigSource.open(dir.path)).toThrow(ConfigError);
  });
});
