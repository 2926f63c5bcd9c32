/**
 * issue 40 item 9: the UI's short wake id names its wake for the CLI; a prefix naming several
 * wakes, or too short to mean one, is refused (never guessed); the CLI's sentence lists them.
 */
import { describe, expect, it } from 'vitest';
import { matchWakeId, shortWakeId } from '../../../shared/wake-id.js';
import { resolveWakeId } from '../../../main/serve/wake-id-cli.js';
import type { DaemonClient } from '../../../main/serve/daemon-client.js';
import { captureIo } from '../../fixtures/capture-io.js';

const A = 'wk_3f2a9c1b-0000-4000-8000-000000000001';
const B = 'wk_3f2a77aa-0000-4000-8000-000000000002';
const R = 'wk_recovery_9d8e7f6a5b4c';
const TOKENS = [A, B, R];

describe('wake ids', () => {
  it('the short id the inspector shows names its wake', () => {
    expect(shortWakeId(A)).toBe('3f2a9c1b');
    expect(shortWakeId(R)).toBe('9d8e7f6a');
    for (const t of TOKENS) expect(matchWakeId(shortWakeId(t), TOKENS)).toEqual({ kind: 'one', token: t });
    expect(matchWakeId(A, TOKENS)).toEqual({ kind: 'one', token: A });
    expect(matchWakeId('wk_3f2a9', TOKENS)).toEqual({ kind: 'one', token: A });
  });

  it('refuses an ambiguous prefix, a too-short one and an unknown one', () => {
    expect(matchWakeId('3f2a', TOKENS)).toEqual({ kind: 'ambiguous', tokens: [A, B] });
    expect(matchWakeId('3f2', TOKENS)).toEqual({ kind: 'too_short' });
    expect(matchWakeId('wk_', TOKENS)).toEqual({ kind: 'too_short' });
    expect(matchWakeId('ffff', TOKENS)).toEqual({ kind: 'none' });
  });

  it('the CLI names the wakes an ambiguous prefix matches (exit 2), and resolves a short id', async () => {
    const client = {
      call: async () => ({ ok: true, value: TOKENS.map((wakeToken) => ({ wakeToken })) }),
      close: () => undefined,
    } as unknown as DaemonClient;
    const io = captureIo();
    expect(await resolveWakeId(client, io, '3f2a')).toEqual({ ok: false, code: 2 });
    expect(io.errLines).toEqual([`agentteam: the wake id "3f2a" matches 2 wakes (${A}, ${B}); give more of it.`]);
    expect(await resolveWakeId(client, captureIo(), '3f2a9c1b')).toEqual({ ok: true, token: A });
    const none = captureIo();
    expect(await resolveWakeId(client, none, 'abcd1234')).toEqual({ ok: false, code: 1 });
    expect(none.errLines[0]).toMatch(/no wake "abcd1234" among the newest 1000/);
  });
});
