import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Subject, filter, firstValueFrom } from 'rxjs';
import { ApiError, SettingsSchema, type Settings } from '../../../../../shared/api/contract.js';
import { ChannelSettingsSchema } from '../../../../../shared/config.js';
import { ConfigSource } from '../../../../../main/daemon/config/config-source.js';
import {
  DaemonSettings,
  channelEdits,
  planLegacyMigration,
  type SettingsPort,
} from '../../../../../main/daemon/settings/daemon-settings.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

let dir: TempDir;
const open: Array<{ close(): void } | { dispose(): void }> = [];
beforeEach(() => (dir = makeTempDir('agentteam-settings-')));
afterEach(() => {
  for (const o of open.splice(0)) {
    if ('close' in o) o.close();
    else o.dispose();
  }
  dir.remove();
});

const file = () => join(dir.path, 'agentteam.json');
const FILE_TEXT = `{
  "agents": [{ "id": "demo", "name": "Demo", "runtime": "demo" }],
  "channels": {
    "local": {
      "silenceWatchdog": { "thresholdSeconds": 30 }
    }
  }
}
`;

function memoryPort(saved?: ReturnType<SettingsPort['load']>): SettingsPort & { saved: unknown[]; dropped: number } {
  let state = saved;
  const port = {
    saved: [] as unknown[],
    dropped: 0,
    load: () => state,
    save(prefs: { language: 'en' | 'zh-CN' }) {
      port.saved.push(prefs);
      state = { ...state, ...prefs };
    },
    dropLegacyChannels() {
      port.dropped++;
      const { channels: _c, ...rest } = state ?? {};
      state = rest;
      return '/copy';
    },
  };
  return port;
}

function make(port?: SettingsPort) {
  const source = ConfigSource.open(dir.path);
  const settings = new DaemonSettings({ source, ...(port ? { port } : {}) });
  open.push(settings, source);
  return { source, settings };
}

describe('DaemonSettings: agentteam.json is the one source of channel settings', () => {
  beforeEach(() => writeFileSync(file(), FILE_TEXT));

  it('channels come from the file over the defaults; each value says where it comes from', () => {
    const { settings } = make();
    const s = SettingsSchema.parse(settings.current);
    expect(s.language).toBe('en');
    expect(Object.keys(s.channels)).toEqual(['local']);
    expect(s.channels.local?.silenceWatchdog.thresholdSeconds).toBe(30);
    expect(s.config?.file).toBe(file());
    expect(s.config?.origins.local?.['silenceWatchdog.thresholdSeconds']).toBe('file');
    expect(s.config?.origins.local?.['silenceWatchdog.maxBeacons']).toBe('default');
    expect(s.config?.error).toBeNull();
  });

  it('a UI save writes only the changed keys into agentteam.json; the language goes to the port, not the file', () => {
    const port = memoryPort();
    const { settings } = make(port);
    const next = ChannelSettingsSchema.parse({ silenceWatchdog: { thresholdSeconds: 30, maxBeacons: 2 } });
    const result = settings.update({ language: 'zh-CN', channel: 'local', settings: next });
    expect(readFileSync(file(), 'utf8')).toBe(
      FILE_TEXT.replace('{ "thresholdSeconds": 30 }', '{ "thresholdSeconds": 30, "maxBeacons": 2 }'),
    );
    expect(result.language).toBe('zh-CN');
    expect(port.saved).toEqual([{ language: 'zh-CN' }]);
    expect(settings.channel('local').silenceWatchdog.maxBeacons).toBe(2);
    expect(result.config?.origins.local?.['silenceWatchdog.maxBeacons']).toBe('file');
    // Saving the same values again writes nothing.
    const before = readFileSync(file(), 'utf8');
    settings.update({ channel: 'local', settings: next });
    expect(readFileSync(file(), 'utf8')).toBe(before);
  });

  it('issue 16: only known channel keys; an unknown channel is a coded error and writes nothing', () => {
    const { settings } = make();
    let error: unknown;
    try {
      settings.update({ channel: 'nope', settings: {} });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('unknown_channel');
    expect((error as ApiError).message).toBe('There is no delivery channel "nope"; the channels are: local.');
    expect(readFileSync(file(), 'utf8')).toBe(FILE_TEXT);
    expect(() => settings.update({ channel: 'local' })).toThrow(ApiError);
    expect(() => settings.update({ settings: {} })).toThrow(ApiError);
  });

  it('an edit of the file on disk applies (channel live, agents "restart to apply") and is pushed as settings.changed', async () => {
    const { source, settings } = make();
    const changed = firstValueFrom(settings.changed$);
    writeFileSync(
      file(),
      FILE_TEXT.replace('"thresholdSeconds": 30', '"thresholdSeconds": 5').replace('"Demo"', '"Demo 2"'),
    );
    expect(source.reload()).toBe(true);
    const s = await changed;
    expect(s.channels.local?.silenceWatchdog.thresholdSeconds).toBe(5);
    expect(settings.channel('local').silenceWatchdog.thresholdSeconds).toBe(5);
    expect(s.config?.restartNeeded).toEqual(['agents']);
  });

  it('issue 14: "restart to apply" compares the file with the agents as they run; refresh() tells the UI when they change', async () => {
    writeFileSync(file(), FILE_TEXT);
    const source = ConfigSource.open(dir.path);
    let running = source.initial.agents;
    const settings = new DaemonSettings({ source, appliedAgents: () => running });
    open.push(settings, source);
    writeFileSync(file(), FILE_TEXT.replace('"runtime": "demo" }', '"runtime": "demo", "cwd": "/srv/project" }'));
    source.reload();
    expect(settings.current.config?.restartNeeded).toEqual(['agents']);
    // The agent was restarted with its file entry (agent detail → agents.update): nothing left to apply.
    running = source.config.agents;
    const changed = firstValueFrom(settings.changed$);
    settings.refresh();
    expect((await changed).config?.restartNeeded).toEqual([]);
  });

  it("issue 39: what runs changed is heard from the roster's applied$ (an event, not a port back): recomputed and pushed", async () => {
    writeFileSync(file(), FILE_TEXT);
    const source = ConfigSource.open(dir.path);
    let running = source.initial.agents;
    const applied$ = new Subject<string>();
    const settings = new DaemonSettings({ source, appliedAgents: () => running, applied$ });
    open.push(settings, source);
    writeFileSync(file(), FILE_TEXT.replace('"runtime": "demo" }', '"runtime": "demo", "cwd": "/srv/project" }'));
    source.reload();
    expect(settings.current.config?.restartNeeded).toEqual(['agents']);
    running = source.config.agents;
    const pushed: Settings[] = [];
    settings.changed$.subscribe((x) => pushed.push(x));
    applied$.next('demo');
    expect(pushed.map((x) => x.config?.restartNeeded)).toEqual([[]]);
    expect(settings.current.config?.restartNeeded).toEqual([]);
  });

  it('issue 24: editing a legacy visible-reply key (per agent or top level) never reads "restart to apply" (§7.3)', () => {
    const { source, settings } = make();
    for (const edited of [
      FILE_TEXT.replace('"runtime": "demo" }', '"runtime": "demo", "visibleReplyContract": { "enabled": false } }'),
      FILE_TEXT.replace('"runtime": "demo" }', '"runtime": "demo", "visible_reply_contract_enabled": false }'),
      FILE_TEXT.replace('"agents"', '"visibleReplyContract": false, "visible_reply_contract_enabled": 0, "agents"'),
    ]) {
      writeFileSync(file(), edited);
      expect(source.reload()).toBe(true);
      expect(settings.current.config?.error).toBeNull();
      expect(settings.current.config?.restartNeeded).toEqual([]);
    }
    // A real change beside a legacy key still does.
    writeFileSync(
      file(),
      FILE_TEXT.replace('"runtime": "demo" }', '"runtime": "demo", "visibleReplyContract": false }').replace(
        '"Demo"',
        '"Demo 2"',
      ),
    );
    expect(source.reload()).toBe(true);
    expect(settings.current.config?.restartNeeded).toEqual(['agents']);
  });

  it('an invalid edit keeps the last valid settings, and the error reaches the UI', async () => {
    const { source, settings } = make();
    const changed = firstValueFrom(settings.changed$.pipe(filter((s) => s.config?.error != null)));
    writeFileSync(file(), FILE_TEXT.replace('"thresholdSeconds": 30', '"thresholdSeconds": "soon"'));
    source.reload();
    const s = await changed;
    expect(s.config?.error).toMatchObject({
      code: 'config_invalid',
      problems: [
        { path: 'channels.local.silenceWatchdog.thresholdSeconds', expectation: 'expected a number, got "soon"' },
      ],
    });
    expect(s.channels.local?.silenceWatchdog.thresholdSeconds).toBe(30);
    expect(settings.channel('local').silenceWatchdog.thresholdSeconds).toBe(30);
    expect(() => settings.update({ channel: 'local', settings: ChannelSettingsSchema.parse({}) })).toThrow(
      /Nothing was saved/,
    );
  });
});

describe('legacy channel settings in settings.json (they used to override agentteam.json)', () => {
  it('a value the file does not set moves into agentteam.json; one it sets wins; then the block leaves settings.json', () => {
    writeFileSync(file(), FILE_TEXT);
    const legacy = {
      local: ChannelSettingsSchema.parse({
        silenceWatchdog: { thresholdSeconds: 45, maxBeacons: 3 },
        responseDelivery: { retryCount: 1 },
      }),
      team: {},
    };
    const port = memoryPort({ language: 'zh-CN', channels: legacy });
    const { settings } = make(port);
    const written = JSON.parse(readFileSync(file(), 'utf8'));
    // maxBeacons 3 was not in the file: moved. thresholdSeconds: the file's 30 wins over the old 45.
    expect(written.channels.local.silenceWatchdog).toEqual({ thresholdSeconds: 30, maxBeacons: 3 });
    expect(settings.current.config?.notices).toEqual([
      { kind: 'ignored', path: 'channels.local.silenceWatchdog.thresholdSeconds', value: 45, fileValue: 30 },
      { kind: 'migrated', path: 'channels.local.silenceWatchdog.maxBeacons', value: 3 },
      { kind: 'ignored', path: 'channels.team', value: {} },
    ]);
    expect(settings.current.language).toBe('zh-CN');
    expect(port.dropped).toBe(1);
    expect(port.load()).toEqual({ language: 'zh-CN' });
  });

  it('plan: defaults the file does not set are not written (the issue-17 case: a whole block of defaults)', () => {
    const plan = planLegacyMigration({ local: ChannelSettingsSchema.parse({}) }, { channels: {} }, ['local']);
    expect(plan).toEqual({ edits: [], notices: [] });
  });

  it('channelEdits lists only values that differ', () => {
    const base = ChannelSettingsSchema.parse({});
    const next = ChannelSettingsSchema.parse({ responseDelivery: { retryDelayMs: 100 } });
    expect(channelEdits(base, next, 'local')).toEqual([
      { path: ['channels', 'local', 'responseDelivery', 'retryDelayMs'], value: 100 },
    ]);
  });
});
