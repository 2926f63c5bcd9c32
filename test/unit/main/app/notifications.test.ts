import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('../../../fixtures/electron-fake.js')).electronModule);

import { Subject } from 'rxjs';
import * as fake from '../../../fixtures/electron-fake.js';
import type { Alert, ApiEvent } from '../../../../shared/api/contract.js';
import type { PromptLanguage } from '../../../../shared/config.js';
import { notificationFor, startAlertNotifier } from '../../../../main/app/notifications.js';

const alert = (kind: Alert['kind'], overrides: Partial<Alert> = {}): Alert => ({
  id: `a_${kind}`,
  kind,
  target: '#general',
  wakeToken: 'w_7',
  responseId: 'r_1',
  message: 'status copy',
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

  it('notifies nothing else (uncertain deliveries, no-response, crashes stay in the status area)', () => {
    for (const kind of ['delivery_uncertain', 'no_response', 'runtime_crashed'] as const)
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
    events.next({ name: 'alert.raised', payload: alert('no_response') });
    language = 'zh-CN';
    events.next({ name: 'alert.raised', payload: alert('escalation', { wakeToken: 'w_9' }) });
    expect(fake.Notification.shown.map((n) => n.options.body)).toEqual([
      'Reply not delivered — kept for re-delivery',
      '⚠️ 处理时间较长，仍在处理，回复可能延迟。',
    ]);
    expect(fake.Notification.shown[0]?.options.urgency).toBe('critical');
    fake.Notification.shown[1]?.emit('click');
    expect(focused).toEqual(['w_9']);
    notifier.dispose();
    expect(fake.Notification.shown[0]?.closed).toBe(true);
    events.next({ name: 'alert.raised', payload: alert('delivery_failed') });
    expect(fake.Notification.shown).toHaveLength(2);
  });

  it('stays quiet where the OS has no notifications', () => {
    fake.Notification.supported = false;
    const events = new Subject<ApiEvent>();
    startAlertNotifier({ events$: events, language: () => 'en', focusWake: () => undefined });
    events.next({ name: 'alert.raised', payload: alert('delivery_failed') });
    expect(fake.Notification.shown).toEqual([]);
  });
});
