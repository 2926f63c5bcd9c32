import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);
// electron-log/main require()s the real `electron` (CommonJS, past vi.mock), which cannot load
// here; electron-log/node is the same logger and file transport without the Electron hooks.
vi.mock('electron-log/main', async () => import('electron-log/node'));

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fake from '../../../fixtures/electron-fake.js';
import { createAppLog, redactContent, rotateLogFiles } from '../../../../main/app/app-log.js';

describe('app log', () => {
  let dir: string;
  beforeEach(() => {
    fake.resetElectronFake();
    dir = mkdtempSync(join(tmpdir(), 'app-log-'));
    fake.app.setPath('userData', dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('redacts content-bearing fields at any depth, keeping their size', () => {
    expect(redactContent({ call: 'messages.send', content: 'héllo', nested: { prompt: 'abc', ok: 1 }, n: 3 })).toEqual({
      call: 'messages.send',
      content: '[redacted: 6 bytes]',
      nested: { prompt: '[redacted: 3 bytes]', ok: 1 },
      n: 3,
    });
  });

  it('writes info lines to <logs>/main.log without message content', async () => {
    const log = createAppLog({ logsDir: join(dir, 'logs') });
    log.info('message stored', { target: '#general', content: 'the secret plan' });
    log.warn('delivery retry', { text: 'more secret words', responseId: 'r_1' });
    log.debug('debug detail', { content: 'debug content' });
    await vi.waitFor(() => expect(existsSync(log.path)).toBe(true));
    const text = readFileSync(log.path, 'utf8');
    expect(text).toContain('message stored');
    expect(text).toContain('#general');
    expect(text).toContain('r_1');
    expect(text).not.toContain('secret');
    expect(text).not.toContain('debug detail');
  });

  it('rotates into numbered generations, keeping `keep` of them', () => {
    const file = join(dir, 'main.log');
    for (let i = 1; i <= 4; i++) {
      writeFileSync(file, `generation ${i}`);
      rotateLogFiles(file, 2);
    }
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(join(dir, 'main.1.log'), 'utf8')).toBe('generation 4');
    expect(readFileSync(join(dir, 'main.2.log'), 'utf8')).toBe('generation 3');
    expect(existsSync(join(dir, 'main.3.log'))).toBe(false);
  });

  it('rotates by itself when the file reaches maxSize', async () => {
    const log = createAppLog({ logsDir: join(dir, 'logs'), maxSize: 2048, keep: 3 });
    for (let i = 0; i < 200; i++) log.info(`line ${i} ${'x'.repeat(40)}`);
    await vi.waitFor(() => expect(existsSync(join(dir, 'logs', 'main.1.log'))).toBe(true));
    expect(readFileSync(log.path, 'utf8')).toContain('line 199');
  });
});
