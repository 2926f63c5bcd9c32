/** Deterministic ids: the idempotency keys of the store (watchdog spec B, contract §6.6). */
import { createHash } from 'node:crypto';
import type { TargetKey } from '../../../shared/target.js';
import { RECOVERY_MESSAGE_PREFIX } from '../wake/pending-delivery.js';

/** Deterministic id of a response chunk's message: the idempotency key of watchdog spec B. */
export function responseMessageId(authorId: string, responseId: string, chunkIndex: number): string {
  return `msg_r${digest([authorId, responseId, String(chunkIndex)])}`;
}

/** Deterministic marker id (contract §6.6): same agent, target and frontier, same id. */
export function recoveryMarkerId(agentId: string, target: TargetKey, frontierSeq: number): string {
  return `rm_${digest([agentId, target, String(frontierSeq)])}`;
}

/** Deterministic id of a recovery batch: the agent and each target's frontier. */
export function recoveryBatchId(agentId: string, frontiers: readonly (readonly [TargetKey, number])[]): string {
  return `rb_${digest([agentId, ...frontiers.map(([t, seq]) => `${t}@${seq}`)])}`;
}

function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
}

/** Deterministic token of a marker's synthetic recovery wake (contract §6.6: never a revived original token). */
export function recoveryWakeToken(markerId: string): string {
  return `wk_recovery_${markerId.slice('rm_'.length)}`;
}

/** The marker id behind a synthetic recovery message id (`msg_recovery_<digest>`), or null for any other id. */
export function markerIdOfRecoveryMessage(messageId: string): string | null {
  return messageId.startsWith(RECOVERY_MESSAGE_PREFIX) ? `rm_${messageId.slice(RECOVERY_MESSAGE_PREFIX.length)}` : null;
}
