/** The status of one approval request in plain words (issue 14): an allow says for how long. */
import type { ApprovalScope, ApprovalStatus } from '../../../shared/approvals.js';
import { copy, type Language } from '../i18n/copy.js';

export function approvalStatusText(status: ApprovalStatus, scope: ApprovalScope | null, language: Language): string {
  if (status === 'allowed' && scope !== null)
    return copy(language, 'approvals.allowedScope', { scope: copy(language, `approvals.scope.${scope}`) });
  return copy(language, `approvals.status.${status}`);
}
