import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChannelSettingsSchema } from '../../../../shared/config.js';
import { openServeSettings } from '../../../../main/serve/serve-settings.js';

const dirs: string[] = [];
const temp = async () => {
  const d = await mkdtemp(join(tmpdir(), 'agentteam-settings-'));
  dirs.push(d);
  return d;
};
afterEach(async () => Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))));

describe('serve settings (<data-dir>/settings.json: UI-only preferences)', () => {
  it('nothing saved yet: load answers undefined (the daemon uses its defaults)', async () => {
    expect(openServeSettings(await temp()).load()).toBeUndefined();
  });

  it('the language saved is loaded again by a new process; keys it does not know are kept', async () => {
    const dir = await temp();
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ windowBounds: { width: 800 } }));
    openServeSettings(dir).save({ language: 'zh-CN' });
    expect(openServeSettings(dir).load()).toEqual({ language: 'zh-CN' });
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))).toEqual({
      windowBounds: { width: 800 },
      language: 'zh-CN',
    });
  });

  it('legacy channel settings are handed over once, then leave the file (a copy is kept)', async () => {
    const dir = await temp();
    const local = ChannelSettingsSchema.parse({ silenceWatchdog: { thresholdSeconds: 30 } });
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ language: 'en', channels: { local } }));
    const port = openServeSettings(dir);
    expect(port.load()).toEqual({ language: 'en', channels: { local } });
    const copy = port.dropLegacyChannels();
    expect(copy).toBe(join(dir, 'settings.legacy-channels.json'));
    expect(JSON.parse(await readFile(copy ?? '', 'utf8'))).toEqual({ channels: { local } });
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))).toEqual({ language: 'en' });
    expect(openServeSettings(dir).load()).toEqual({ language: 'en' });
    expect(openServeSettings(dir).dropLegacyChannels()).toBeNull();
  });

  it('an unknown language is ignored with a warning and the file is left exactly as it was', async () => {
    const dir = await temp();
    const text = JSON.stringify({ language: 'klingon' });
    await writeFile(join(dir, 'settings.json'), text);
    const warnings: string[] = [];
    const port = openServeSettings(dir, {
      debugEnabled: false,
      info() {},
      debug() {},
      error() {},
      warn: (m) => warnings.push(m),
    });
    expect(port.load()).toEqual({});
    expect(warnings).toHaveLength(1);
    expect(await readFile(join(dir, 'settings.json'), 'utf8')).toBe(text);
  });

  it('a file that is not JSON: defaults, a clear error on save, and the file is untouched', async () => {
    const dir = await temp();
    await writeFile(join(dir, 'settings.json'), '{ not json');
    const port = openServeSettings(dir);
    expect(port.load()).toBeUndefined();
    expect(() => port.save({ language: 'en' })).toThrow(/not valid JSON/);
    expect(await readFile(join(dir, 'settings.json'), 'utf8')).toBe('{ not json');
  });
});
