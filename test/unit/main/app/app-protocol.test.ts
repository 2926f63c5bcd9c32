import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fake from '../../../fixtures/electron-fake.js';
import { handleAppProtocol, isAppUrl, registerAppScheme, serveAppRequest } from '../../../../main/app/app-protocol.js';
import { RENDERER_CSP } from '../../../../shared/csp.js';

describe('app:// protocol', () => {
  let root: string;
  let dir: string;

  beforeEach(async () => {
    fake.resetElectronFake();
    dir = await mkdtemp(join(tmpdir(), 'app-protocol-'));
    root = join(dir, 'renderer');
    await mkdir(join(root, 'assets'), { recursive: true });
    await writeFile(join(root, 'index.html'), '<!doctype html><title>AgentTeam</title>');
    await writeFile(join(root, 'assets', 'index-1.js'), 'console.log(1)');
    await writeFile(join(dir, 'secret.txt'), 'do not serve');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const get = (url: string, method = 'GET') => serveAppRequest(root, new Request(url, { method }));

  it('is registered privileged as standard + secure before ready', () => {
    registerAppScheme();
    expect(fake.protocol.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
    ]);
  });

  it('serves the entry and assets with the strict CSP header and a content type', async () => {
    const page = await get('app://agentteam/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(RENDERER_CSP);
    expect(RENDERER_CSP).toContain("script-src 'self'");
    expect(RENDERER_CSP).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>AgentTeam</title>');
    const script = await get('app://agentteam/assets/index-1.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('app://agentteam/')).status).toBe(200);
  });

  it('never serves outside its folder, another host, or a write', async () => {
    for (const url of [
      'app://agentteam/%2e%2e/secret.txt',
      'app://agentteam/..%2fsecret.txt',
      'app://agentteam/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://other/index.html',
      'app://agentteam/missing.js',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(await res.text()).not.toContain('do not serve');
    }
    expect((await get('app://agentteam/index.html', 'POST')).status).toBe(405);
  });

  it('handleAppProtocol serves the folder through protocol.handle and unhandles on dispose', async () => {
    const dispose = handleAppProtocol(root);
    const handler = fake.protocol.handlers.get('app');
    expect((await handler?.(new Request('app://agentteam/index.html')))?.status).toBe(200);
    dispose();
    expect(fake.protocol.handlers.has('app')).toBe(false);
  });

  it('isAppUrl recognises only app://agentteam', () => {
    expect(isAppUrl('app://agentteam/index.html')).toBe(true);
    expect(isAppUrl('app://agentteam.evil/index.html')).toBe(false);
    expect(isAppUrl('https://agentteam/index.html')).toBe(false);
    expect(isAppUrl('file:///app/index.html')).toBe(false);
    expect(isAppUrl('garbage')).toBe(false);
  });
});
