/**
 * OS notifications for what the person must not miss while the window is in the background
 * (watchdog spec B "alert operator"; DESIGN.md "Beyond the specs": alerts are statuses and
 * OS notifications, never chat messages authored as the agent): a reply that reached
 * FAILED_FINAL, a turn that ended with nothing sent (spec B no-response, issue 24), a
 * silence-watchdog escalation, and (issue 27) an agent at 80 % of a usage limit or budget. Clicking one focuses its wake. Copy is neutral status text
 * (UI.md "Chips and copy"), led by the agent's name when the alert carries it; a channel's own
 * `escalationMessage` is shown as the person wrote it. `agentteam serve` has no OS
 * notifications: there the alert is the status line in the browser and a daemon log line.
 */
import { Notification } from 'electron';
import { filter, type Observable, type Subscription } from 'rxjs';
import type { Alert, ApiEvent, Approval } from '../../shared/api/contract.js';
import { SilenceWatchdogSchema, type PromptLanguage } from '../../shared/config.js';
import { displayText } from '../../shared/display-text.js';

/** Alert kinds that become OS notifications. */
export const NOTIFIED_ALERT_KINDS = [
  'delivery_failed',
  'no_response',
  'escalation',
  'usage_warning',
] as const satisfies readonly Alert['kind'][];

/** The schema's escalation text: an alert carrying any other was written by the person (their channel's config). */
const DEFAULT_ESCALATION = SilenceWatchdogSchema.parse({}).escalationMessage;
type NotifiedKind = (typeof NOTIFIED_ALERT_KINDS)[number];

const COPY: Record<PromptLanguage, Record<NotifiedKind, string>> = {
  en: {
    delivery_failed: 'Reply not delivered — kept for re-delivery',
    no_response: 'Turn ended without a message — back to idle',
    escalation: '⚠️ Extended processing — still working. Response may be delayed.',
    usage_warning: 'Usage at 80 % of a limit or budget — see Usage',
  },
  'zh-CN': {
    delivery_failed: '回复未送达，已保留待重新投递',
    no_response: '本轮结束，未发送消息，已回到空闲',
    escalation: '⚠️ 处理时间较长，仍在处理，回复可能延迟。',
    usage_warning: '用量已达上限或预算的 80% — 请查看“用量”',
  },
};

export interface NotificationContent {
  readonly title: string;
  readonly body: string;
}

/** The notification for an alert, or null when this kind is not notified. Pure. */
export function notificationFor(alert: Alert, language: PromptLanguage): NotificationContent | null {
  if (!(NOTIFIED_ALERT_KINDS as readonly string[]).includes(alert.kind)) return null;
  const kind = alert.kind as NotifiedKind;
  const words = kind === 'escalation' && alert.message !== DEFAULT_ESCALATION ? alert.message : COPY[language][kind];
  const body = alert.agentName === undefined ? words : `${alert.agentName} · ${words}`;
  return { title: alert.target === null ? 'AgentTeam' : `AgentTeam · ${alert.target}`, body };
}

/**
 * issue 14: a new approval request (UI.md "waiting for an approval"); null once it is settled. Pure.
 * issue 41: the summary's controls and bidi overrides are shown as codes (shared/display-text.ts).
 */
export function approvalNotificationFor(approval: Approval, language: PromptLanguage): NotificationContent | null {
  if (approval.status !== 'pending') return null;
  const summary = displayText(approval.summary);
  const body = language === 'zh-CN' ? `✋ 等待你的批准：${summary}` : `✋ Waiting for your approval: ${summary}`;
  return { title: `AgentTeam · ${displayText(approval.agentName, 'one-line')}`, body };
}

export interface AlertNotifierOptions {
  readonly events$: Observable<ApiEvent>;
  readonly language: () => PromptLanguage;
  /** Brings the window forward and opens the wake (or just the window when there is none). */
  readonly focusWake: (wakeToken: string | null) => void;
}

/** Shows notifications until disposed. Holds each shown notification until it is clicked or closed (else GC drops its click). */
export function startAlertNotifier(options: AlertNotifierOptions): { dispose(): void } {
  const shown = new Set<Notification>();
  const supported = Notification.isSupported();
  const subscription: Subscription = options.events$
    .pipe(filter((e): e is Extract<ApiEvent, { name: 'alert.raised' }> => e.name === 'alert.raised'))
    .subscribe(({ payload: alert }) => {
      const content = supported ? notificationFor(alert, options.language()) : null;
      if (content === null) return;
      const notification = new Notification({
        title: content.title,
        body: content.body,
        urgency: alert.kind === 'delivery_failed' ? 'critical' : 'normal',
      });
      shown.add(notification);
      notification.on('click', () => {
        shown.delete(notification);
        options.focusWake(alert.wakeToken);
      });
      notification.on('close', () => shown.delete(notification));
      notification.show();
    });
  // issue 14: an approval waits for the person: notify it once, when it is asked.
  subscription.add(
    options.events$
      .pipe(filter((e): e is Extract<ApiEvent, { name: 'approval.updated' }> => e.name === 'approval.updated'))
      .subscribe(({ payload: approval }) => {
        const content = supported ? approvalNotificationFor(approval, options.language()) : null;
        if (content === null) return;
        const notification = new Notification({ title: content.title, body: content.body, urgency: 'critical' });
        shown.add(notification);
        notification.on('click', () => {
          shown.delete(notification);
          options.focusWake(approval.wakeTokens[0] ?? null);
        });
        notification.on('close', () => shown.delete(notification));
        notification.show();
      }),
  );
  return {
    dispose() {
      subscription.unsubscribe();
      for (const n of shown) n.close();
      shown.clear();
    },
  };
}
