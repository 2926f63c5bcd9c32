/**
 * Approval requests (issue 14): the chip in the status area (`approval.*`) and the inspector's
 * list of a wake's requests (`approvals.*`).
 */
import { copyTable } from '../copy-table.js';

export const APPROVAL_COPY = [
  copyTable('approval', {
    en: {
      'approval.waiting': 'Waiting for your approval: {summary}',
      'approval.allowOnce': 'Allow once',
      'approval.allowSession': 'For this session',
      'approval.allowAlways': 'Always',
      // issue 40 item 4: the accessible names carry the exact rule each answer adds.
      'approval.allowSessionName': 'Allow for this session: {rule}',
      'approval.allowAlwaysName': 'Always allow: {rule}',
      'approval.rule': 'For this session or always, exactly:',
      'approval.refused': 'Not answered: {message}',
      'approval.deny': 'Deny',
      'approval.detail': 'Full command or change',
    },
    'zh-CN': {
      'approval.waiting': '等待你的批准：{summary}',
      'approval.allowOnce': '允许一次',
      'approval.allowSession': '本次会话内允许',
      'approval.allowAlways': '始终允许',
      'approval.allowSessionName': '本次会话内允许：{rule}',
      'approval.allowAlwaysName': '始终允许：{rule}',
      'approval.rule': '本次会话内或始终允许的规则：',
      'approval.refused': '未能回答：{message}',
      'approval.deny': '拒绝',
      'approval.detail': '完整命令或改动',
    },
  }),
  copyTable('approvals', {
    en: {
      'approvals.heading': 'Approval requests ({count})',
      'approvals.status.pending': 'Waiting for your approval',
      'approvals.status.allowed': 'Allowed',
      'approvals.status.denied': 'Denied',
      'approvals.status.expired': 'Expired — answered as denied',
      'approvals.status.cancelled': 'Cancelled',
      'approvals.scope.once': 'once',
      'approvals.scope.session': 'for this session',
      'approvals.scope.always': 'always — rule saved',
      'approvals.allowedScope': 'Allowed · {scope}',
      'approvals.reason': 'Reason: {reason}',
    },
    'zh-CN': {
      'approvals.heading': '批准请求（{count}）',
      'approvals.status.pending': '等待你的批准',
      'approvals.status.allowed': '已允许',
      'approvals.status.denied': '已拒绝',
      'approvals.status.expired': '已过期，按拒绝处理',
      'approvals.status.cancelled': '已取消',
      'approvals.scope.once': '仅此一次',
      'approvals.scope.session': '本次会话内',
      'approvals.scope.always': '始终（已保存规则）',
      'approvals.allowedScope': '已允许 · {scope}',
      'approvals.reason': '原因：{reason}',
    },
  }),
] as const;
