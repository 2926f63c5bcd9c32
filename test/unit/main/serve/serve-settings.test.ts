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

describe('serve settings (conf, <data-dir>/settings.json)', () => {
  it('nothing saved yet: load answers undefined (the daemon uses its defaults)', async () => {
    expect(openServeSettings(await temp()).load()).toBeUndefined();
  });

  it('what is saved is loaded again by a new process on the same data dir', async () => {
    const dir = await temp();
    const local = ChannelSettingsSchema.parse({ silenceWatchdog: { thresholdSeconds: 30 } });
    openServeSettings(dir).save({ language: 'zh-CN', channels: { local } });
    const loaded = openServeSettings(dir).load();
    expect(loaded?.language).toBe('zh-CN');
    expect(loaded?.channels?.local?.silenceWatchdog.thresholdSeconds).toBe(30);
  });

  it('a file that does not validate is ignored and left exactly as it was', async () => {
    const dir = await temp();
    const text = JSON.stringify({ language: 'klingon' });
    await writeFile(join(dir, 'settings.json'), text);
    const warnings: string[] = [];
    const port = openServeSettings(dir, { info() {}, debug() {}, error() {}, warn: (m) => warnings.push(m) });
    expect(port.load()).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(await readFile(join(dir, 'settings.json'), 'utf8')).toBe(text);
  });

  it('a file that is not JSON: defaults, a clear error on save, and the file is untouched', async () => {
    const dir = await temp();
    await writeFile(join(dir, 'settings.json'), '{ not json');
    const port = openServeSettings(dir);
    expect(port.load()).toBeUndefined();
    expect(() => port.save({ language: 'en', channels: {} })).toThrow(/not valid JSON/);
    expect(await readFile(join(dir, 'settings.json'), 'utf8')).toBe('{ not json');
  });
});
