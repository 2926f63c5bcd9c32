import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);

import { Subject } from 'rxjs';
import * as fake from '../../../fixtures/electron-fake.js';
import type { Alert, ApiEvent } from '../../../../shared/api/contract.js';
import type { PromptLanguage } from '../../../../shared/config.js';
import { approvalNotificationFor, notificationFor, startAlertNotifier } from '../../../../main/app/notifications.js';
import { approvalOf } from '../../../fixtures/contract-values.js';

const alert = (kind: Alert['kind'], overrides: Partial<Alert> = {}): Alert => ({
  id: `a_${kind}`,
  kind,
  target: '#general',
  wakeToken: 'w_7',
  responseId: 'r_1',
  // What the daemon puts there: an escalation carries its channel's escalationMessage (here the default).
  message: kind === 'escalation' ? '⚠️ Extended processing — still working. Response may be delayed.' : 'status copy',
  at: '2026-11-30T07:00:00.000Z',
  ...overrides,
});

describe('notifications', () => {
  beforeEach(() => fake.resetElectronFake());

  it('uses the neutral UI.md copy for FAILED_FINAL deliveries and escalations, in both languages', () => {
    expect(notificationFor(alert('delivery_failed'), 'en')).toEqual({
      title: 'AgentTeam · #general',
      body: 'Reply not delivered — kept for re-delivery',
    });
    expect(notificationFor(alert('escalation'), 'en')?.body).toBe(
      '⚠️ Extended processing — still working. Response may be delayed.',
    );
    expect(notificationFor(alert('delivery_failed'), 'zh-CN')?.body).toBe('回复未送达，已保留待重新投递');
    expect(notificationFor(alert('escalation', { target: null }), 'zh-CN')).toEqual({
      title: 'AgentTeam',
      body: '⚠️ 处理时间较长，仍在处理，回复可能延迟。',
    });
  });

  it('issue 24: a turn that ended with nothing sent (spec B no-response) is notified, named, neutral, in both languages', () => {
    expect(notificationFor(alert('no_response', { agentName: 'Claude' }), 'en')).toEqual({
      title: 'AgentTeam · #general',
      body: 'Claude · Turn ended without a message — back to idle',
    });
    expect(notificationFor(alert('no_response', { agentName: 'Claude' }), 'zh-CN')?.body).toBe(
      'Claude · 本轮结束，未发送消息，已回到空闲',
    );
    expect(notificationFor(alert('no_response'), 'en')?.body).toBe('Turn ended without a message — back to idle');
  });

  it('issue 27: an agent at 80 % of a usage limit or budget is notified, named, in both languages', () => {
    const warning = alert('usage_warning', {
      agentName: 'Codex',
      message: 'Codex · 5-hour window at 82 % · resets 14:05 UTC',
    });
    expect(notificationFor(warning, 'en')).toEqual({
      title: 'AgentTeam · #general',
      body: 'Codex · Usage at 80 % of a limit or budget — see Usage',
    });
    expect(notificationFor(warning, 'zh-CN')?.body).toBe('Codex · 用量已达上限或预算的 80% — 请查看“用量”');
  });

  it("issue 24: an escalation shows the channel's own escalationMessage as written; the default one is translated", () => {
    const custom = alert('escalation', { message: '⏳ Still digging, hang on', agentName: 'Codex' });
    expect(notificationFor(custom, 'zh-CN')?.body).toBe('Codex · ⏳ Still digging, hang on');
    const standard = alert('escalation', {
      message: '⚠️ Extended processing — still working. Response may be delayed.',
    });
    expect(notificationFor(standard, 'zh-CN')?.body).toBe('⚠️ 处理时间较长，仍在处理，回复可能延迟。');
  });

  it('issue 41: an approval notification shows bidi overrides and controls in the summary as codes', () => {
    const n = approvalNotificationFor(approvalOf({ summary: 'rm -rf ~ #\u202etxt.doc\x1b]52;c;x\x07' }), 'en');
    expect(n?.body).toBe('✋ Waiting for your approval: rm -rf ~ #\\u{202e}txt.doc\\x1b]52;c;x\\x07');
  });

  it('notifies nothing else (uncertain deliveries, crashes stay in the status area)', () => {
    for (const kind of ['delivery_uncertain', 'runtime_crashed'] as const)
      expect(notificationFor(alert(kind), 'en')).toBeNull();
  });

  it('shows one notification per notified alert; clicking it focuses its wake', () => {
    const events = new Subject<ApiEvent>();
    const focused: Array<string | null> = [];
    let language: PromptLanguage = 'en';
    const notifier = startAlertNotifier({
      events$: events,
      language: () => language,
      focusWake: (t) => focused.push(t),
    });
    events.next({ name: 'alert.raised', payload: alert('delivery_failed') });
    events.next({ name: 'alert.raised', payload: alert('delivery_uncertain') });
    language = 'zh-CN';
    events.next({ name: 'alert.raised', payload: alert('escalation', { wakeToken: 'w_9' }) });
    events.next({ name: 'alert.raised', payload: alert('no_response', { wakeToken: 'w_11' }) });
    expect(fake.Notification.shown.map((n) => n.options.body)).toEqual([
      'Reply not delivered — kept for re-delivery',
      '⚠️ 处理时间较长，仍在处理，回复可能延迟。',
      '本轮结束，未发送消息，已回到空闲',
    ]);
    expect(fake.Notification.shown[0]?.options.urgency).toBe('critical');
    fake.Notification.shown[1]?.emit('click');
    fake.Notification.shown[2]?.emit('click');
    expect(focused).toEqual(['w_9', 'w_11']);
    notifier.dispose();
    expect(fake.Notification.shown[0]?.closed).toBe(true);
    events.next({ name: 'alert.raised', payload: alert('delivery_failed') });
    expect(fake.Notification.shown).toHaveLength(3);
  });

  it('stays quiet where the OS has no notifications', () => {
    fake.Notification.supported = false;
    const events = new Subject<ApiEvent>();
    startAlertNotifier({ events$: events, language: () => 'en', focusWake: () => undefined });
    events.next({ name: 'alert.raised', payload: alert('delivery_failed') });
    expect(fake.Notification.shown).toEqual([]);
  });
});
