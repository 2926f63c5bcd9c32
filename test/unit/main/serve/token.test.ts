import { mkdtemp, rm, stat, chmod, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateToken, readToken, tokenMatches } from '../../../../main/serve/token.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'token-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('serve token', () => {
  it('is created once with mode 0600 and reused', async () => {
    expect(await readToken(dir)).toBeNull();
    const a = await loadOrCreateToken(dir);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(join(dir, 'serve-token'))).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateToken(dir)).toBe(a);
  });

  it('tightens a loosened token file', async () => {
    await loadOrCreateToken(dir);
    await chmod(join(dir, 'serve-token'), 0o644);
    await loadOrCreateToken(dir);
    expect((await stat(join(dir, 'serve-token'))).mode & 0o777).toBe(0o600);
  });

  it('replaces a file that does not hold a token', async () => {
    await writeFile(join(dir, 'serve-token'), 'short');
    expect(await loadOrCreateToken(dir)).not.toBe('short');
  });

  it('compares tokens exactly', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abc', 'abd')).toBe(false);
    expect(tokenMatches('abc', 'abcd')).toBe(false);
    expect(tokenMatches('abc', null)).toBe(false);
  });
});
