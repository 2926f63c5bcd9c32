import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOnPath, firstRunConfig } from '../../../../main/daemon/first-run-config.js';
import { ConfigSchema } from '../../../../shared/config.js';

describe('first-run config', () => {
  it('seeds #general, the demo agent and the helper it can ask (issue 25), and no runtime CLI that is not on PATH', () => {
    const seed = firstRunConfig(() => false);
    expect(seed.conversations).toEqual(['#general']);
    expect(seed.config.agents.map((a) => [a.id, a.name, a.runtime])).toEqual([
      ['demo', 'Demo', 'demo'],
      ['helper', 'Helper', 'demo'],
    ]);
    expect(seed.offered.map((o) => [o.command, o.found])).toEqual([
      ['claude', false],
      ['codex', false],
      ['opencode', false],
      ['gemini', false],
      ['qwen', false],
      ['copilot', false],
    ]);
  });

  it('issue 28: adds an ACP agent with its preset for each ACP CLI found on PATH', () => {
    const seed = firstRunConfig((c) => c === 'gemini' || c === 'copilot');
    expect(seed.config.agents.map((a) => [a.id, a.runtime, a.preset ?? null, a.command])).toEqual([
      ['demo', 'demo', null, null],
      ['helper', 'demo', null, null],
      ['gemini', 'acp', 'gemini', null],
      ['copilot', 'acp', 'copilot', null],
    ]);
    expect(ConfigSchema.parse(JSON.parse(JSON.stringify(seed.config)))).toEqual(seed.config);
  });

  it('adds each runtime found on PATH as an agent, with the watchdog spec defaults', () => {
    const seed = firstRunConfig((c) => c === 'claude' || c === 'opencode');
    expect(seed.config.agents.map((a) => [a.id, a.runtime, a.command])).toEqual([
      ['demo', 'demo', null],
      ['helper', 'demo', null],
      ['claude', 'claude-code', 'claude'],
      ['opencode', 'opencode', 'opencode'],
    ]);
    expect(seed.config.channels.local?.silenceWatchdog).toMatchObject({ thresholdSeconds: 45, maxBeacons: 5 });
    expect(seed.config.channels.local?.responseDelivery).toMatchObject({ retryCount: 1, retryDelayMs: 3000 });
    // What is written round-trips through the validator the daemon uses at start.
    expect(ConfigSchema.parse(JSON.parse(JSON.stringify(seed.config)))).toEqual(seed.config);
  });
});

describe('findOnPath', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'path-'));
    await writeFile(join(dir, 'claude'), '#!/bin/sh\n');
    await chmod(join(dir, 'claude'), 0o755);
    await writeFile(join(dir, 'codex'), 'not executable');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('finds an executable and ignores a non-executable file', () => {
    expect(findOnPath('claude', `/nonexistent:${dir}`, 'linux')).toBe(true);
    expect(findOnPath('codex', dir, 'linux')).toBe(false);
    expect(findOnPath('opencode', dir, 'linux')).toBe(false);
  });
});
