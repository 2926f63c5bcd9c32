/**
 * issue 41: the renderer's CSP has one source (shared/csp.ts). The app:// header, serve's header and
 * the `<meta>` the build writes into index.html are the same policy, so the browser never enforces
 * two that disagree (connect-src was `'self'` in one, `ws://127.0.0.1:* ws://localhost:*` in the
 * other and `ws://127.0.0.1:* http://127.0.0.1:*` in the third).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP, RENDERER_META_CSP, withMetaCsp } from '../../../shared/csp.js';

function directives(policy: string): Map<string, string> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim())
      .filter((d) => d !== '')
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

describe('renderer CSP', () => {
  it('index.html carries no policy of its own; the built page gets the one policy as its first <head> element', async () => {
    const html = await readFile('renderer/index.html', 'utf8');
    expect(html).not.toMatch(/Content-Security-Policy/i);
    const built = withMetaCsp(html);
    const meta = /<head>\s*<meta http-equiv="Content-Security-Policy" content="([^"]+)" \/>/.exec(built)?.[1];
    expect(meta).toBe(RENDERER_META_CSP);
  });

  it('the <meta> policy is the header policy minus the directives a <meta> cannot carry (CSP3 §6.1)', () => {
    const header = directives(RENDERER_CSP);
    const meta = directives(RENDERER_META_CSP);
    expect(header.get('connect-src')).toBe("'self'");
    expect(meta.get('connect-src')).toBe(header.get('connect-src'));
    expect([...header.keys()].filter((k) => !meta.has(k))).toEqual(['frame-ancestors']);
    for (const [name, value] of meta) expect(header.get(name)).toBe(value);
    expect(header.get('script-src')).toBe("'self'");
  });

  it('refuses to add a second policy to a page that has one', () => {
    expect(() => withMetaCsp('<head><meta http-equiv="content-security-policy" content="x"></head>')).toThrow(
      /shared\/csp\.ts/,
    );
  });
});
