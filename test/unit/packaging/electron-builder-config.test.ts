import { beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * electron-builder.yml, checked offline with electron-builder's own loader and schema
 * (research/electron-feasibility.md §6). The fuses are read back one by one: YAML cannot be
 * typed, so this test is what keeps every fuse listed and hardened (electron-style.md (b) 14).
 * scripts/check-package.mjs then proves a `--linux --dir` build really flips them.
 */
const root = process.cwd();
const require = createRequire(join(root, 'package.json'));
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string, fromOptions: null): Promise<Record<string, unknown>>;
  validateConfiguration(config: Record<string, unknown>, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

type Targets = { target: string[] };

describe('electron-builder.yml', () => {
  let config: Record<string, unknown>;
  beforeAll(async () => {
    config = await getConfig(root, join(root, 'electron-builder.yml'), null);
  }, 60_000);

  it("passes electron-builder's own validation", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('the validation is live: an unknown key is rejected', async () => {
    await expect(validateConfiguration({ ...config, electronFusez: {} }, new DebugLogger(false))).rejects.toThrow(
      /configuration object that does not match the API schema/,
    );
  });

  it('lists every fuse explicitly, hardened (runAsNode, NODE_OPTIONS, inspect off; cookie encryption, asar integrity, asar-only on)', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('targets Linux AppImage and deb, macOS dmg, Windows nsis', () => {
    expect((config.linux as Targets).target).toEqual(['AppImage', 'deb']);
    expect((config.mac as Targets).target).toEqual(['dmg']);
    expect((config.win as Targets).target).toEqual(['nsis']);
  });

  it('packs only the build output into an asar', () => {
    expect(config.asar).toBe(true);
    expect(config.files).toEqual([{ filter: ['out/**', 'package.json', '!out/**/*.map'] }]);
    expect(config.executableName).toBe('agentteam-desktop');
    expect((config.directories as { output: string }).output).toBe('dist');
  });
});
