/**
 * What the Telegram chat shows for an approval (issue 14 answered from the phone): the question
 * with its Allow / Deny buttons, the outcome it is edited to, and the short answers to a button
 * press. Neutral copy (UI.md: the chip "✋ Waiting for your approval"), in the app's language
 * (`settings.language`, en or zh-CN). Plain text (no parse_mode): a summary is never markup, and
 * its controls and bidi overrides are shown as codes (shared/display-text.ts, issue 41).
 */
import type { ApprovalDecision, ApprovalScope, ApprovalStatus } from '../../../../shared/approvals.js';
import { displayText } from '../../../../shared/display-text.js';
import type { PromptLanguage } from '../../../../shared/config.js';
import type { ApprovalRecord } from '../../store/index.js';

/** Room for the summary in the question (Telegram allows 4,096; the full detail stays in the app). */
const SUMMARY_LIMIT = 1000;

/**
 * issue 29 "What you approve is what you see": whether the question shows the whole summary (the
 * command line as it would run). Only then does it carry Allow / Deny; a longer one is shown cut,
 * with no buttons and the line "open AgentTeam to answer" — never an Allow for text the person
 * could not see.
 */
export function approvalFitsChat(summary: string): boolean {
  return displayText(summary).length <= SUMMARY_LIMIT;
}

/**
 * issue 40 item 4: whether the question offers "for this session" and "always" — only for a request
 * with an exact rule (issue 29), shown whole in the question beside a whole summary.
 */
export function approvalScopesFitChat(r: Pick<ApprovalRecord, 'summary' | 'rule'>): boolean {
  return approvalFitsChat(r.summary) && r.rule !== null && displayText(r.rule, 'one-line').length <= SUMMARY_LIMIT;
}

const COPY = {
  en: {
    asks: '✋ {agent} asks: {summary}',
    allow: 'Allow once',
    allowSession: 'For this session',
    allowAlways: 'Always',
    rule: 'For this session or always, exactly: {rule}',
    deny: 'Deny',
    allowedBy: '✅ Allowed by {who}',
    allowed: '✅ Allowed',
    deniedBy: '🚫 Denied by {who}',
    denied: '🚫 Denied',
    expired: '⌛ Expired — no answer in time, so it was denied',
    cancelled: '⏹ Cancelled — the agent’s runtime or AgentTeam stopped',
    scopeSession: ' (for this session)',
    scopeAlways: ' (always: {rule})',
    notAllowed: 'You are not allowed to answer approvals in this chat.',
    tooLong: 'This command is too long to show here in full: open AgentTeam to answer.',
    unknown: 'This request is no longer known.',
    malformed: 'This button is not recognised.',
    doneAllow: 'Allowed.',
    doneDeny: 'Denied.',
    already: 'This request is already {status}; nothing was changed.',
    failed: 'The answer could not be recorded; answer it in the app.',
    status: { allowed: 'allowed', denied: 'denied', expired: 'expired', cancelled: 'cancelled' },
  },
  'zh-CN': {
    asks: '✋ {agent} 请求批准：{summary}',
    allow: '允许一次',
    allowSession: '本次会话内允许',
    allowAlways: '始终允许',
    rule: '本次会话内或始终允许的规则：{rule}',
    deny: '拒绝',
    allowedBy: '✅ {who} 已允许',
    allowed: '✅ 已允许',
    deniedBy: '🚫 {who} 已拒绝',
    denied: '🚫 已拒绝',
    expired: '⌛ 已过期：未及时回答，已自动拒绝',
    cancelled: '⏹ 已取消：智能体的运行时或 AgentTeam 已停止',
    scopeSession: '（本次会话）',
    scopeAlways: '（始终：{rule}）',
    notAllowed: '你无权在此聊天中回答批准请求。',
    tooLong: '此命令太长，无法在此完整显示：请打开 AgentTeam 回答。',
    unknown: '找不到此请求。',
    malformed: '无法识别此按钮。',
    doneAllow: '已允许。',
    doneDeny: '已拒绝。',
    already: '此请求已{status}，未做任何更改。',
    failed: '未能记录回答，请在应用中回答。',
    status: { allowed: '允许', denied: '拒绝', expired: '过期', cancelled: '取消' },
  },
} as const;

type Key = Exclude<keyof (typeof COPY)['en'], 'status'>;

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);
}

export function approvalCopy(lang: PromptLanguage, key: Key, values: Record<string, string> = {}): string {
  return fill(COPY[lang][key], values);
}

/**
 * The question: "✋ Claude asks: npm test"; one too long to show in full says to answer in the app.
 * issue 40 item 4: with an exact rule it is followed by that rule, which "For this session" and
 * "Always" add (the same line the app's chip shows).
 */
export function approvalQuestion(
  lang: PromptLanguage,
  agent: string,
  r: Pick<ApprovalRecord, 'summary' | 'rule'>,
): string {
  const shown = displayText(r.summary);
  const name = displayText(agent, 'one-line');
  if (shown.length <= SUMMARY_LIMIT) {
    const question = approvalCopy(lang, 'asks', { agent: name, summary: shown });
    return approvalScopesFitChat(r) && r.rule !== null
      ? `${question}\n${approvalCopy(lang, 'rule', { rule: displayText(r.rule, 'one-line') })}`
      : question;
  }
  const short = `${shown.slice(0, SUMMARY_LIMIT - 1)}…`;
  return `${approvalCopy(lang, 'asks', { agent: name, summary: short })}\n${approvalCopy(lang, 'tooLong')}`;
}

/** The question followed by its outcome; `who` names a Telegram user who answered, null otherwise. */
export function approvalOutcome(lang: PromptLanguage, question: string, r: ApprovalRecord, who: string | null): string {
  return `${question}\n${outcomeLine(lang, r, who)}`;
}

function outcomeLine(lang: PromptLanguage, r: ApprovalRecord, who: string | null): string {
  const scope = scopeText(lang, r.scope, r.rule);
  switch (r.status) {
    case 'allowed':
      return (who === null ? approvalCopy(lang, 'allowed') : approvalCopy(lang, 'allowedBy', { who })) + scope;
    case 'denied':
      return who === null ? approvalCopy(lang, 'denied') : approvalCopy(lang, 'deniedBy', { who });
    case 'expired':
      return approvalCopy(lang, 'expired');
    case 'cancelled':
    case 'pending':
      return approvalCopy(lang, 'cancelled');
  }
}

function scopeText(lang: PromptLanguage, scope: ApprovalScope | null, rule: string | null): string {
  if (scope === 'session') return approvalCopy(lang, 'scopeSession');
  if (scope === 'always' && rule !== null) return approvalCopy(lang, 'scopeAlways', { rule: displayText(rule) });
  return '';
}

/** The toast after a press on an approval that was already settled. */
export function alreadySettled(lang: PromptLanguage, status: Exclude<ApprovalStatus, 'pending'>): string {
  return approvalCopy(lang, 'already', { status: COPY[lang].status[status] });
}

/** The toast after a press that answered. */
export function answered(lang: PromptLanguage, decision: ApprovalDecision): string {
  return approvalCopy(lang, decision === 'allow' ? 'doneAllow' : 'doneDeny');
}

/** What a button answers: its decision and, for Allow, its scope (issue 40 item 4). */
export interface ApprovalButton {
  readonly decision: ApprovalDecision;
  readonly scope: ApprovalScope;
  readonly id: string;
}

/** One letter per answer: `a` allow once, `s` allow for this session, `w` allow always, `d` deny. */
const BUTTON_CODES = {
  a: ['allow', 'once'],
  s: ['allow', 'session'],
  w: ['allow', 'always'],
  d: ['deny', 'once'],
} as const;

/**
 * callback_data of a button: `ap:a|s|w|d:<id>` (Telegram allows 1–64 bytes; an id is `ap_` + 12
 * hex digits, so 20 bytes). Parsed strictly: a client may send any data (Bot API
 * CallbackQuery.data), so nothing else is read from it.
 */
export function approvalButtonData(decision: ApprovalDecision, id: string, scope: ApprovalScope = 'once'): string {
  const code = decision === 'deny' ? 'd' : scope === 'session' ? 's' : scope === 'always' ? 'w' : 'a';
  return `ap:${code}:${id}`;
}

export function parseApprovalButton(data: string | undefined): ApprovalButton | null {
  const m = /^ap:([aswd]):([A-Za-z0-9_-]{1,56})$/.exec(data ?? '');
  if (m === null) return null;
  const [decision, scope] = BUTTON_CODES[m[1] as keyof typeof BUTTON_CODES];
  return { decision, scope, id: m[2] ?? '' };
}
