import { describe, expect, it } from 'vitest';
import type { Alert, Wake } from '../../../../shared/api/contract.js';
import {
  alertKindOfEvent,
  alertText,
  chipKind,
  CHIP_ICONS,
  chipElapsed,
  chipText,
  latestRound,
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

describe('status area chips: one per addressed agent of the latest round, no outcome hidden (issue 24)', () => {
  const demo = { agentId: 'demo', agentName: 'Demo' };
  const claude = { agentId: 'claude', agentName: 'Claude' };
  const tokens = (chips: { wakeToken: string }[]) => chips.map((c) => c.wakeToken);

  it("shows an agent's failure beside another agent's active wake (@demo /slow, then @claude fails at once)", () => {
    const wakes = [
      w('slow', 'delivered', { ...demo, createdAt: at(0) }),
      w('auth', 'failed', { ...claude, reason: 'auth_required', createdAt: at(3), endedAt: at(3) }),
    ];
    expect(statusChips(wakes, '#general').map((c) => [c.wakeToken, c.kind])).toEqual([
      ['slow', 'working'],
      ['auth', 'failed'],
    ]);
  });

  it('after the working agent replies, its outcome and the failure both stay', () => {
    const wakes = [
      w('slow', 'reply_sent', { ...demo, createdAt: at(0), endedAt: at(20) }),
      w('auth', 'failed', { ...claude, createdAt: at(3), endedAt: at(3) }),
    ];
    expect(tokens(statusChips(wakes, '#general'))).toEqual(['slow', 'auth']);
  });

  it("an agent's newest wake of the round decides its terminal chip: one chip per agent", () => {
    const wakes = [
      w('d1', 'reply_sent', { ...demo, createdAt: at(0), endedAt: at(10) }),
      w('d2', 'completed_without_visible_reply', { ...demo, createdAt: at(5), endedAt: at(12) }),
      w('c1', 'reply_sent', { ...claude, createdAt: at(1), endedAt: at(4) }),
    ];
    expect(tokens(statusChips(wakes, '#general'))).toEqual(['c1', 'd2']);
  });

  it('a message sent after all work ended starts a new round: the earlier outcomes give way', () => {
    const wakes = [
      w('c1', 'reply_sent', { ...claude, createdAt: at(0), endedAt: at(4) }),
      w('d1', 'delivered', { ...demo, createdAt: at(30) }),
    ];
    expect(tokens(statusChips(wakes, '#general'))).toEqual(['d1']);
  });

  it('an agent woken just after the round ended (by an agent reply) is still in the round', () => {
    const wakes = [
      w('d1', 'reply_sent', { ...demo, createdAt: at(0), endedAt: at(10) }),
      w('c1', 'delivered', { ...claude, createdAt: at(11) }),
    ];
    expect(tokens(statusChips(wakes, '#general'))).toEqual(['d1', 'c1']);
  });

  it('a failure stays into later rounds until a later wake of that agent ends', () => {
    const failed = w('auth', 'failed', { ...claude, createdAt: at(0), endedAt: at(1) });
    const later = w('d1', 'reply_sent', { ...demo, createdAt: at(30), endedAt: at(40) });
    expect(tokens(statusChips([failed, later], '#general'))).toEqual(['auth', 'd1']);
    const retry = w('c2', 'delivered', { ...claude, createdAt: at(50) });
    expect(tokens(statusChips([failed, later, retry], '#general'))).toEqual(['auth', 'c2']);
    const retried = { ...retry, status: 'reply_sent' as const, endedAt: at(55) };
    expect(tokens(statusChips([failed, later, retried], '#general'))).toEqual(['c2']);
  });

  it('a dismissed failure is not shown; an undismissed one of another agent still is', () => {
    const wakes = [
      w('f1', 'failed', { ...claude, createdAt: at(0), endedAt: at(1) }),
      w('f2', 'failed', { ...demo, createdAt: at(0), endedAt: at(2) }),
    ];
    expect(tokens(statusChips(wakes, '#general', new Set(['f1'])))).toEqual(['f2']);
    expect(tokens(statusChips(wakes, '#general', new Set(['f1', 'f2'])))).toEqual([]);
  });

  it('dismissing only hides failures, never an active wake or another outcome', () => {
    const wakes = [
      w('busy', 'delivered', { ...demo, createdAt: at(0) }),
      w('ok', 'reply_sent', { ...claude, createdAt: at(1), endedAt: at(2) }),
    ];
    expect(tokens(statusChips(wakes, '#general', new Set(['busy', 'ok'])))).toEqual(['busy', 'ok']);
  });

  it('the same rule holds in a thread, and a thread failure never shows in its parent', () => {
    const wakes = [
      w('t1', 'delivered', { ...demo, target: '#general:ab12', createdAt: at(0) }),
      w('t2', 'failed', { ...claude, target: '#general:ab12', createdAt: at(1), endedAt: at(1) }),
    ];
    expect(tokens(statusChips(wakes, '#general:ab12'))).toEqual(['t1', 't2']);
    expect(statusChips(wakes, '#general')).toEqual([]);
  });
});

describe('latestRound', () => {
  it('is the last run of overlapping work, oldest first', () => {
    const round = latestRound([
      w('late', 'delivered', { createdAt: at(40) }),
      w('early', 'reply_sent', { createdAt: at(0), endedAt: at(5) }),
      w('overlap', 'failed', { createdAt: at(41), endedAt: at(41) }),
    ]);
    expect(round.map((x) => x.wakeToken)).toEqual(['late', 'overlap']);
    expect(latestRound([])).toEqual([]);
  });
});

describe('chip copy (UI.md table)', () => {
  const now = Date.parse(at(0)) + 90_000;
  it.each<[string, 'en' | 'zh-CN', string]>([
    ['queued', 'en', 'Queued'],
    ['working', 'en', 'Working'],
    ['beacon', 'en', 'Working…'],
    ['beacon', 'zh-CN', '处理中…'],
    ['escalated', 'en', 'Extended processing — still working. Response may be delayed. You can stop it.'],
    ['checking', 'zh-CN', '正在确认回复'],
    ['replied', 'en', 'Replied'],
    ['received_idle', 'en', 'Received — back to idle'],
    ['received_idle', 'zh-CN', '已收到消息并回到空闲'],
    ['failed', 'en', "Couldn't complete"],
    ['failed', 'zh-CN', '未能完成'],
  ])('%s in %s reads "%s"', (kind, lang, text) => {
    expect(chipText(kind as never, lang)).toBe(text);
  });

  it('issue 24: a failure a recovery continued says so, on its chip, in en and zh-CN; one not continued stays "couldn\'t complete"', () => {
    const original = w('orig', 'failed', { reason: 'daemon_restarted', recoveries: 1, endedAt: at(10) });
    const recovery = w('wk_recovery_1', 'delivered', { createdAt: at(11) });
    const chips = statusChips([original, recovery], '#general');
    expect(chips.map((c) => [c.wakeToken, c.kind, c.continued])).toEqual([
      ['orig', 'failed', true],
      ['wk_recovery_1', 'working', false],
    ]);
    expect(chipText('failed', 'en', { continued: true })).toBe('Interrupted — continued in a new wake');
    expect(chipText('failed', 'zh-CN', { continued: true })).toBe('已中断——已在新的唤醒中继续');
    const lost = statusChips([w('lost', 'failed', { reason: 'daemon_restarted', endedAt: at(10) })], '#general');
    expect(lost.map((c) => c.continued)).toEqual([false]);
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

  it('issue 24: the no-response alert is its own neutral status line beside the shown chip, in other words than the chip', () => {
    const ended = new Map([['n', w('n', 'completed_without_visible_reply', { reason: 'no_reply', endedAt: at(40) })]]);
    const endedChips = statusChips(ended.values(), '#general');
    expect(endedChips.map((c) => c.wakeToken)).toEqual(['n']);
    const shown = statusAlerts(
      [alert('r', 'no_response', { wakeToken: 'n' })],
      '#general',
      endedChips,
      ended,
      new Set(),
    );
    expect(shown.map((a) => a.id)).toEqual(['r']);
    for (const language of ['en', 'zh-CN'] as const)
      expect(alertText(shown[0]!, language)).not.toBe(chipText(endedChips[0]!.kind, language));
    expect(alertText(shown[0]!, 'en')).toBe('Turn ended without a message');
    expect(alertText(shown[0]!, 'zh-CN')).toBe('本轮结束，未发送消息');
    // Dismissed, it goes; the chip stays.
    expect(
      statusAlerts([alert('r', 'no_response', { wakeToken: 'n' })], '#general', endedChips, ended, new Set(['r'])),
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

  it("issue 24: a channel's own beacon words stand for the default in any language; other chips keep theirs", () => {
    const words = { beacon: 'Crunching numbers', escalation: '⚠️ Long one — hang on' };
    expect(chipText('beacon', 'zh-CN', { words })).toBe('Crunching numbers');
    // The escalated chip's icon leads it already: a leading ⚠️ of the person's text is said once.
    expect(chipText('escalated', 'en', { words })).toBe('Long one — hang on');
    expect(chipText('escalated', 'en', { words: { beacon: null, escalation: '⚠️' } })).toBe('⚠️');
    expect(chipText('working', 'en', { words })).toBe('Working');
    expect(chipText('beacon', 'zh-CN', { words: { beacon: null, escalation: null } })).toBe('处理中…');
    expect(alertText(alert('e', 'escalation'), 'zh-CN', words)).toBe('⚠️ Long one — hang on');
    expect(alertText(alert('e', 'escalation'), 'zh-CN')).toBe('处理时间较长，仍在处理，回复可能延迟。你可以停止它。');
    expect(alertText(alert('d', 'delivery_failed'), 'en', words)).toBe('Reply not delivered — kept for re-delivery');
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
