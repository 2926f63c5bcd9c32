/**
 * The inspector of one wake: its head, facts and what the agent was sent (`prompt.kind.*`).
 */
import { copyTable } from '../copy-table.js';

export const INSPECTOR_COPY = [
  copyTable('inspector', {
    en: {
      'inspector.title': '{agent} · {conversation}',
      'inspector.close': 'Close',
      'inspector.timeline': 'Timeline',
      'inspector.promptInputs': 'What the agent was sent ({count})',
      'inspector.noPromptInputs': 'Nothing has been sent to the agent for this yet.',
      'inspector.details': 'Failure details',
      'inspector.loading': 'Loading…',
      'inspector.event.status': 'Status',
      'inspector.event.beacon': 'Still working — status shown',
      'inspector.event.escalation': 'Extended processing',
      'inspector.event.final_check': 'Final check sent',
      'inspector.event.delivery': 'Reply delivery',
      'inspector.event.alert': 'Notice',
      'inspector.event.cross_target_send': 'Sent to {target} — cross-target',
      'inspector.beacons': 'Status updates: {count}',
      'inspector.finalCheck': 'Final check sent: {value}',
      'inspector.yes': 'yes',
      'inspector.no': 'no',
      'inspector.reason': 'Reason: {reason}',
      'inspector.wakeId': 'Wake id',
      'inspector.started': 'Started',
    },
    'zh-CN': {
      'inspector.title': '{agent} · {conversation}',
      'inspector.close': '关闭',
      'inspector.timeline': '时间线',
      'inspector.promptInputs': '发送给智能体的内容（{count}）',
      'inspector.noPromptInputs': '尚未向智能体发送相关内容。',
      'inspector.details': '失败详情',
      'inspector.loading': '加载中…',
      'inspector.event.status': '状态',
      'inspector.event.beacon': '仍在处理，已显示状态',
      'inspector.event.escalation': '处理时间较长',
      'inspector.event.final_check': '已发送最终确认',
      'inspector.event.delivery': '回复投递',
      'inspector.event.alert': '提醒',
      'inspector.event.cross_target_send': '已发送到 {target} — 跨目标发送',
      'inspector.beacons': '状态更新：{count}',
      'inspector.finalCheck': '已发送最终确认：{value}',
      'inspector.yes': '是',
      'inspector.no': '否',
      'inspector.reason': '原因：{reason}',
      'inspector.wakeId': '唤醒编号',
      'inspector.started': '开始时间',
    },
  }),
  copyTable('prompt', {
    en: {
      'prompt.kind.turn_context': 'Message',
      'prompt.kind.delivery': 'Delivery',
      'prompt.kind.final_check': 'Final check',
      'prompt.kind.recovery': 'Recovery',
    },
    'zh-CN': {
      'prompt.kind.turn_context': '消息',
      'prompt.kind.delivery': '投递',
      'prompt.kind.final_check': '最终确认',
      'prompt.kind.recovery': '恢复',
    },
  }),
] as const;
