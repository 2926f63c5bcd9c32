import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../../shared/api/contract.js';
import { buildClientApi } from '../../../../shared/api/client-api.js';
import { ipcClient, type HostWindow } from '../../../../renderer/src/api/ipc-client.js';
import { operatorKeyOf, pickTransport } from '../../../../renderer/src/api/pick-transport.js';

const fakeWindow = (extra: Record<string, unknown>, search = '') =>
  ({ location: { search, protocol: 'http:', host: '127.0.0.1:1' }, ...extra }) as unknown as HostWindow;

describe('transport choice', () => {
  const bridge = buildClientApi(
    async (name, request) => ({ ok: true, value: { name, request } }),
    (_l: (e: ApiEvent) => void) => () => undefined,
  );

  it('uses the preload bridge when it exists (Electron)', () => {
    const t = pickTransport(fakeWindow({ agentteam: bridge }, '?token=ignored'));
    expect(t.kind).toBe('ipc');
  });

  it('without a bridge or a token, asks for the printed URL', () => {
    expect(pickTransport(fakeWindow({}))).toEqual({ kind: 'none', reason: 'no_token' });
  });

  it('issue 41: with the token but no operator key (a bookmark, a shared link), asks for the printed URL too', () => {
    // The serve token alone is answered nothing but limits.get: no page of refusals, one clear line.
    expect(pickTransport(fakeWindow({}, '?token=t'))).toEqual({ kind: 'none', reason: 'no_token' });
  });

  it('issue 29: takes the operator key from the URL fragment, keeps it for the tab and clears it from the address bar', () => {
    const stored = new Map<string, string>();
    const replaced: Array<string | undefined> = [];
    const storage = {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => stored.set(k, v),
    };
    const history = { replaceState: (_d: unknown, _u: string, url?: string) => replaced.push(url) };
    const opened = {
      location: { search: '?token=t', hash: '#operator=K1', protocol: 'http:', host: '127.0.0.1:1' },
      sessionStorage: storage,
      history,
    } as HostWindow;
    expect(operatorKeyOf(opened)).toBe('K1');
    // The fragment is gone from the address bar; the token stays (a reload still connects).
    expect(replaced).toEqual(['?token=t']);
    // A reload of the same tab (no fragment any more) still has it.
    const reloaded = { ...opened, location: { ...opened.location, hash: '' } } as HostWindow;
    expect(operatorKeyOf(reloaded)).toBe('K1');
    // Another tab opened from a bookmark (no fragment, its own storage) is not the operator's.
    const bookmark = { ...reloaded, sessionStorage: { getItem: () => null, setItem: () => undefined } } as HostWindow;
    expect(operatorKeyOf(bookmark)).toBeUndefined();
  });

  it('treats a partial bridge as absent', () => {
    expect(ipcClient(fakeWindow({ agentteam: { events: {} } }))).toBeNull();
  });

  it('builds one named method per call that carries the call name', async () => {
    expect(await bridge.wakes.inspect({ wakeToken: 'w1' })).toEqual({
      ok: true,
      value: { name: 'wakes.inspect', request: { wakeToken: 'w1' } },
    });
    expect(Object.keys(bridge).sort()).toEqual([
      'agents',
      'approvals',
      // issue 24: the audit of cross-target sends
      'audit',
      // issue 25: agent chains
      'chains',
      // issue 39: a channel's own calls go through one generic channels.call
      'channels',
      'conversations',
      // issue 14: the desktop app's folder picker (answered only behind the IPC gate)
      'desktop',
      'events',
      // issue 23: the daemon's limits (answered by each transport)
      'limits',
      'messages',
      'settings',
      // issue 25: the Team board
      'team',
      'threads',
      // issue 27: usage per agent per day
      'usage',
      'wakes',
      // issue 26: an isolated agent's worktree
      'worktree',
    ]);
  });
});
