/**
 * Wake status words: the chips, the alerts and the inspector's timeline (UI.md "Chips and copy").
 * Neutral: the UI reports a status, it never speaks for the agent (contract §10.3, §7.3).
 */
import { copyTable } from '../copy-table.js';

export const STATUS_COPY = [
  copyTable('chip', {
    en: {
      'chip.queued': 'Queued',
      'chip.working': 'Working',
      'chip.beacon': 'Working…',
      // issue 40 item 7: the beacon count on a working chip (watchdog spec A).
      'chip.beaconsOne': '1 beacon',
      'chip.beacons': '{count} beacons',
      'chip.escalated': 'Extended processing — still working. Response may be delayed. You can stop it.',
      'chip.checking': 'Checking for a reply',
      'chip.replied': 'Replied',
      'chip.receivedIdle': 'Received — back to idle',
      'chip.failed': "Couldn't complete",
      'chip.failedContinued': 'Interrupted — continued in a new wake',
      'chip.details': 'Details',
      'chip.dismiss': 'Dismiss the outcome of {agent}',
      'chip.stop': 'Stop',
      'chip.stopLabel': 'Stop the turn of {agent}',
      'chip.stopped': 'Stopped',
      'chip.stopFailed': 'Could not stop: {reason}',
      // issue 27: a paused wake (usage limit until its reset; daily budget reached).
      'chip.paused': 'Paused',
      'chip.pausedUntil': 'Paused until {time}',
      // issue 40 item 8: the countdown to the pause's reset.
      'chip.pauseLeft': '{time} left',
      'chip.pauseResuming': 'resuming',
      'chip.pause.usage_limit': 'usage limit',
      'chip.pause.waiting_for_memory': 'waiting for memory',
      'chip.pause.daily_budget': 'daily budget reached',
      'chip.tryNow': 'Try now',
      'chip.cancelPause': 'Cancel',
      'chip.raiseBudget': 'Raise budget',
      // issue 40 item 5: the Retry a failure's fix promises (checks the agent again, starts it anew).
      'chip.retry': 'Retry',
      'chip.retryLabel': 'Retry {agent}',
      'chip.retryReady': '{agent} is ready now. Send the message again.',
      'chip.retryNotReady': '{agent} is still not ready: {fix}',
    },
    'zh-CN': {
      'chip.queued': '排队中',
      'chip.working': '处理中',
      'chip.beacon': '处理中…',
      'chip.beaconsOne': '1 次进度提示',
      'chip.beacons': '{count} 次进度提示',
      'chip.escalated': '处理时间较长，仍在处理，回复可能延迟。你可以停止它。',
      'chip.checking': '正在确认回复',
      'chip.replied': '已回复',
      'chip.receivedIdle': '已收到消息并回到空闲',
      'chip.failed': '未能完成',
      'chip.failedContinued': '已中断——已在新的唤醒中继续',
      'chip.details': '详情',
      'chip.dismiss': '关闭 {agent} 的结果',
      'chip.stop': '停止',
      'chip.stopLabel': '停止 {agent} 的这一轮',
      'chip.stopped': '已停止',
      'chip.stopFailed': '无法停止：{reason}',
      // issue 27
      'chip.paused': '已暂停',
      'chip.pausedUntil': '已暂停，直到 {time}',
      'chip.pauseLeft': '还剩 {time}',
      'chip.pauseResuming': '正在继续',
      'chip.pause.usage_limit': '用量上限',
      'chip.pause.waiting_for_memory': '等待可用内存',
      'chip.pause.daily_budget': '已达每日预算',
      'chip.tryNow': '立即重试',
      'chip.cancelPause': '取消',
      'chip.raiseBudget': '提高预算',
      'chip.retry': '重试',
      'chip.retryLabel': '重试 {agent}',
      'chip.retryReady': '{agent} 已就绪。请再次发送消息。',
      'chip.retryNotReady': '{agent} 仍未就绪：{fix}',
    },
  }),
  copyTable('alert', {
    en: {
      'alert.deliveryFailed': 'Reply not delivered — kept for re-delivery',
      // issue 40 item 7: a delivery failure names its channel.
      'alert.deliveryFailedOn': 'Not delivered to {channel} — kept for re-delivery',
      'alert.deliveryUncertainOn': 'Delivery to {channel} unconfirmed',
      'alert.deliveryUncertain': 'Delivery unconfirmed',
      'alert.escalation': 'Extended processing — still working. Response may be delayed. You can stop it.',
      'alert.noResponse': 'Turn ended without a message',
      'alert.runtimeCrashed': 'Runtime stopped unexpectedly',
      'alert.usageWarning': 'Usage at 80 % of a limit or budget — see Usage',
      'alert.dismiss': 'Dismiss',
    },
    'zh-CN': {
      'alert.deliveryFailed': '回复未送达，已保留待重新投递',
      'alert.deliveryFailedOn': '未送达 {channel}，已保留待重新投递',
      'alert.deliveryUncertainOn': '投递到 {channel} 未确认',
      'alert.deliveryUncertain': '投递未确认',
      'alert.escalation': '处理时间较长，仍在处理，回复可能延迟。你可以停止它。',
      'alert.noResponse': '本轮结束，未发送消息',
      'alert.runtimeCrashed': '运行时意外停止',
      'alert.usageWarning': '用量已达上限或预算的 80% — 请查看“用量”',
      'alert.dismiss': '关闭',
    },
  }),
  copyTable('status', {
    en: {
      'status.label': 'Agent status',
      'status.idle': 'No active work',
    },
    'zh-CN': {
      'status.label': '智能体状态',
      'status.idle': '当前无进行中的工作',
    },
  }),
  copyTable('timeline', {
    en: {
      'timeline.queued': 'Queued',
      'timeline.delivered': 'Delivered to {agent}',
      'timeline.final_check_sent': 'Final check sent',
      'timeline.reply_sent': 'Replied',
      'timeline.failed': "Couldn't complete",
      'timeline.completed_without_visible_reply': 'Received — back to idle',
      'timeline.paused': 'Paused',
    },
    'zh-CN': {
      'timeline.queued': '排队中',
      'timeline.delivered': '已送达 {agent}',
      'timeline.final_check_sent': '已发送最终确认',
      'timeline.reply_sent': '已回复',
      'timeline.failed': '未能完成',
      'timeline.completed_without_visible_reply': '已收到消息并回到空闲',
      'timeline.paused': '已暂停',
    },
  }),
  copyTable('reason', {
    en: {
      'reason.signal_only': 'A notice only — no reply expected',
      'reason.final_check_undeliverable': 'The final check could not be sent',
      'reason.context_overflow': 'Its context window was full; a recovery continues the work',
    },
    'zh-CN': {
      'reason.signal_only': '仅为通知，无需回复',
      'reason.final_check_undeliverable': '最终确认无法发送',
      'reason.context_overflow': '上下文窗口已满，由恢复继续处理',
    },
  }),
] as const;
