import { describe, expect, it } from 'vitest';
import type { Alert, Wake } from '../../../../shared/api/contract.js';
import {
  alertKindOfEvent,
  alertText,
  chipKind,
  CHIP_ICONS,
  chipElapsed,
  chipText,
  statusAlerts,
  statusChips,
} from '../../../../renderer/src/status/wake-chips.js';
import { wakeFixture } from '../../../fixtures/scripted-daemon.js';

const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, s)).toISOString();
const w = (token: string, status: Wake['status'], extra: Partial<Wake> = {}): Wake =>
  wakeFixture({ wakeToken: token, status, createdAt: at(0), ...extra });

describe('status area chips (contract §10.3, UI.md)', () => {
  it('shows every active wake of this conversation, one chip each, oldest first', () => {
    const chips = statusChips(
      [
        w('b', 'delivered', { createdAt: at(5) }),
        w('a', 'queued', { createdAt: at(1) }),
        w('c', 'final_check_sent', { createdAt: at(9) }),
        w('x', 'delivered', { target: '#other' }),
      ],
      '#general',
    );
    expect(chips.map((c) => [c.wakeToken, c.status])).toEqual([
      ['a', 'queued'],
      ['b', 'delivered'],
      ['c', 'final_check_sent'],
    ]);
  });

  it('hides terminal statuses while any wake of the conversation is active', () => {
    const chips = statusChips([w('done', 'reply_sent', { endedAt: at(30) }), w('busy', 'delivered')], '#general');
    expect(chips.map((c) => c.wakeToken)).toEqual(['busy']);
  });

  it('when none is active, shows only the latest terminal status of this scope', () => {
    const chips = statusChips(
      [
        w('old', 'failed', { endedAt: at(10) }),
        w('new', 'completed_without_visible_reply', { reason: 'no_reply', endedAt: at(40) }),
        w('mid', 'reply_sent', { endedAt: at(20) }),
        w('elsewhere', 'reply_sent', { target: '#other', endedAt: at(59) }),
      ],
      '#general',
    );
    expect(chips).toHaveLength(1);
    expect(chips[0]).toMatchObject({
      wakeToken: 'new',
      status: 'completed_without_visible_reply',
      kind: 'received_idle',
      active: false,
    });
  });

  it('a thread is its own scope: its wakes never show in the parent conversation', () => {
    expect(statusChips([w('t', 'delivered', { target: '#general:ab12' })], '#general')).toEqual([]);
    expect(statusChips([w('t', 'delivered', { target: '#general:ab12' })], '#general:ab12')).toHaveLength(1);
  });

  it('shows nothing for a conversation without wakes', () => {
    expect(statusChips([], '#general')).toEqual([]);
  });

  it.each<[Partial<Wake> & { status: Wake['status'] }, string]>([
    [{ status: 'queued' }, 'queued'],
    [{ status: 'delivered' }, 'working'],
    [{ status: 'delivered', beacons: 1 }, 'beacon'],
    [{ status: 'delivered', beacons: 5, escalated: true }, 'escalated'],
    [{ status: 'final_check_sent' }, 'checking'],
    [{ status: 'reply_sent' }, 'replied'],
    [{ status: 'completed_without_visible_reply' }, 'received_idle'],
    [{ status: 'failed' }, 'failed'],
  ])('chip kind of %j is %s', (partial, kind) => {
    expect(chipKind(w('t', partial.status, partial))).toBe(kind);
  });

  it('carries failure detail only for a failed wake', () => {
    expect(statusChips([w('f', 'failed', { detail: 'API error 500', endedAt: at(1) })], '#general')[0]?.detail).toBe(
      'API error 500',
    );
    expect(
      statusChips([w('n', 'completed_without_visible_reply', { detail: 'x', endedAt: at(1) })], '#general')[0]?.detail,
    ).toBeNull();
  });
});

describe('chip copy (UI.md table)', () => {
  const now = Date.parse(at(0)) + 90_000;
  it.each<[string, 'en' | 'zh-CN', string]>([
    ['queued', 'en', 'Queued'],
    ['working', 'en', 'Working'],
    ['beacon', 'en', 'Working…'],
    ['beacon', 'zh-CN', '处理中…'],
    ['escalated', 'en', 'Extended processing — still working. Response may be delayed.'],
    ['checking', 'zh-CN', '正在确认回复'],
    ['replied', 'en', 'Replied'],
    ['received_idle', 'en', 'Received — back to idle'],
    ['received_idle', 'zh-CN', '已收到消息并回到空闲'],
    ['failed', 'en', "Couldn't complete"],
    ['failed', 'zh-CN', '未能完成'],
  ])('%s in %s reads "%s"', (kind, lang, text) => {
    expect(chipText(kind as never, lang)).toBe(text);
  });

  it('every chip has an elapsed time from the start of work: live while active, frozen once ended (issue 17)', () => {
    expect(chipElapsed({ createdAt: at(0), endedAt: null }, 'en', now)).toBe('1m 30s');
    expect(chipElapsed({ createdAt: at(0), endedAt: null }, 'zh-CN', now)).toBe('1分30秒');
    expect(chipElapsed({ createdAt: at(0), endedAt: at(12) }, 'en', now)).toBe('12s');
    for (const kind of [
      'queued',
      'working',
      'beacon',
      'escalated',
      'checking',
      'replied',
      'received_idle',
      'failed',
    ] as const)
      expect(CHIP_ICONS[kind]).not.toBe('');
  });

  it('never words a no-reply outcome as the agent failing to answer (contract §10.3, §7.3)', () => {
    const forbidden = /fail|did not|didn't|no reply|not reply|unanswered|should have|未回复|没有回复|失败/i;
    for (const lang of ['en', 'zh-CN'] as const) {
      expect(chipText('received_idle', lang)).not.toMatch(forbidden);
      expect(
        alertText(
          {
            id: 'a',
            kind: 'no_response',
            target: '#general',
            wakeToken: null,
            responseId: null,
            message: 'x',
            at: at(0),
          },
          lang,
        ),
      ).not.toMatch(forbidden);
    }
  });
});

describe('alerts in the status area', () => {
  const alert = (id: string, kind: Alert['kind'], extra: Partial<Alert> = {}): Alert => ({
    id,
    kind,
    target: '#general',
    wakeToken: null,
    responseId: null,
    message: 'x',
    at: at(50),
    ...extra,
  });
  const wakes = new Map([['a', w('a', 'delivered', { createdAt: at(30) })]]);
  const chips = statusChips(wakes.values(), '#general');

  it('shows alerts of this conversation raised since the shown wake, and of the shown wakes', () => {
    const shown = statusAlerts(
      [
        alert('1', 'delivery_failed'),
        alert('2', 'delivery_uncertain', { at: at(10) }),
        alert('3', 'delivery_uncertain', { wakeToken: 'a', at: at(1) }),
        alert('4', 'delivery_failed', { target: '#other' }),
      ],
      '#general',
      chips,
      wakes,
      new Set(),
    );
    expect(shown.map((a) => a.id)).toEqual(['1', '3']);
  });

  it('does not repeat an escalation the shown chip already says', () => {
    expect(statusAlerts([alert('e', 'escalation', { wakeToken: 'a' })], '#general', chips, wakes, new Set())).toEqual(
      [],
    );
    expect(
      statusAlerts([alert('e', 'escalation', { wakeToken: 'gone' })], '#general', chips, wakes, new Set()).map(
        (a) => a.id,
      ),
    ).toEqual(['e']);
  });

  it('does not repeat a no-response the shown chip already says ("Received — back to idle" once)', () => {
    const ended = new Map([['n', w('n', 'completed_without_visible_reply', { reason: 'no_reply', endedAt: at(40) })]]);
    const endedChips = statusChips(ended.values(), '#general');
    expect(
      statusAlerts([alert('r', 'no_response', { wakeToken: 'n' })], '#general', endedChips, ended, new Set()),
    ).toEqual([]);
    // A delivery alert of the same wake is new information and stays.
    expect(
      statusAlerts([alert('d', 'delivery_failed', { wakeToken: 'n' })], '#general', endedChips, ended, new Set()).map(
        (a) => a.id,
      ),
    ).toEqual(['d']);
  });

  it('drops dismissed alerts', () => {
    expect(statusAlerts([alert('1', 'delivery_failed')], '#general', chips, wakes, new Set(['1']))).toEqual([]);
  });

  it('reads the alert kind of a journaled timeline event ("<kind>: <message>")', () => {
    expect(alertKindOfEvent('no_response: Received — back to idle')).toBe('no_response');
    expect(alertKindOfEvent('delivery_failed: x: y')).toBe('delivery_failed');
    expect(alertKindOfEvent('toString: x')).toBeNull();
    expect(alertKindOfEvent('something else')).toBeNull();
    expect(alertKindOfEvent(null)).toBeNull();
  });

  it('words delivery alerts with the UI table copy', () => {
    expect(alertText(alert('1', 'delivery_failed'), 'en')).toBe('Reply not delivered — kept for re-delivery');
    expect(alertText(alert('1', 'delivery_uncertain'), 'zh-CN')).toBe('投递未确认');
  });
});
