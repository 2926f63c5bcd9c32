/** Wake statuses (DESIGN.md "Wake terminal statuses"; contract §5, §9). */
export const TERMINAL_WAKE_STATUSES = ['reply_sent', 'failed', 'completed_without_visible_reply'] as const;
export const ACTIVE_WAKE_STATUSES = ['queued', 'delivered', 'final_check_sent'] as const;
export const WAKE_STATUSES = [...ACTIVE_WAKE_STATUSES, ...TERMINAL_WAKE_STATUSES] as const;

export type TerminalWakeStatus = (typeof TERMINAL_WAKE_STATUSES)[number];
export type WakeStatus = (typeof WAKE_STATUSES)[number];

export const RUNTIMES = ['claude-code', 'codex', 'opencode', 'demo'] as const;
export type RuntimeKind = (typeof RUNTIMES)[number];

export function isTerminal(status: WakeStatus): status is TerminalWakeStatus {
  return (TERMINAL_WAKE_STATUSES as readonly string[]).includes(status);
}
