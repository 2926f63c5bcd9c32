/**
 * Copy of a wake's approval requests in the inspector (issue 14) in English and Simplified
 * Chinese (UI.md), kept beside the main table. Same `{name}` placeholders as `copy()`.
 */
import type { ApprovalScope, ApprovalStatus } from '../../../shared/approvals.js';
import type { Language } from './copy.js';

const en = {
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
} as const;

export type ApprovalCopyKey = keyof typeof en;

const zhCN: Record<ApprovalCopyKey, string> = {
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
};

const TABLES: Record<Language, Record<ApprovalCopyKey, string>> = { en, 'zh-CN': zhCN };

export function approvalCopy(language: Language, key: ApprovalCopyKey, vars: Record<string, string | number> = {}) {
  return TABLES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/** The status of one request in plain words (an allow says for how long). */
export function approvalStatusText(status: ApprovalStatus, scope: ApprovalScope | null, language: Language): string {
  if (status === 'allowed' && scope !== null)
    return approvalCopy(language, 'approvals.allowedScope', {
      scope: approvalCopy(language, `approvals.scope.${scope}`),
    });
  return approvalCopy(language, `approvals.status.${status}`);
}

/** Every key (a test checks both languages cover all of them). */
export const APPROVAL_COPY_KEYS = Object.keys(en) as ApprovalCopyKey[];
