/**
 * The four wake counters of contract §10.2 on a given prom-client `Registry` (never the
 * default global one). Labels are bounded: runtime type and no-reply reason only; an agent id
 * is never a label (§10.1: high-cardinality analysis uses events, not metrics).
 */
import { Counter, type Registry } from 'prom-client';
import type { RuntimeKind } from '../../../shared/wake-status.js';

export interface WakeMetrics {
  received(runtime: RuntimeKind): void;
  replySent(runtime: RuntimeKind): void;
  completedWithoutVisibleReply(runtime: RuntimeKind, reason: string): void;
  failed(runtime: RuntimeKind): void;
}

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): Counter<L> {
  // Both composition roots may build on one registry; reuse a counter already registered there.
  const existing = registry.getSingleMetric(name);
  if (existing !== undefined) return existing as Counter<L>;
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

export function createWakeMetrics(registry: Registry): WakeMetrics {
  const received = counter(registry, 'wake_received_total', 'Wakes received by the daemon.', ['runtime']);
  const replySent = counter(registry, 'wake_reply_sent_total', 'Wakes that ended with a confirmed visible reply.', [
    'runtime',
  ]);
  const noReply = counter(
    registry,
    'wake_completed_without_visible_reply_total',
    'Wakes that ended without a visible reply.',
    ['runtime', 'reason'],
  );
  const failed = counter(registry, 'wake_failed_total', 'Wakes that ended failed.', ['runtime']);
  // Label sets are few and bounded: cache each child so the hot path skips label hashing.
  const byRuntime = (c: Counter<'runtime'>) => {
    const children = new Map<RuntimeKind, { inc(): void }>();
    return (runtime: RuntimeKind) => {
      let child = children.get(runtime);
      if (child === undefined) children.set(runtime, (child = c.labels({ runtime })));
      child.inc();
    };
  };
  const noReplyChildren = new Map<string, { inc(): void }>();
  return {
    received: byRuntime(received),
    replySent: byRuntime(replySent),
    completedWithoutVisibleReply: (runtime, reason) => {
      const key = runtime + '\u0000' + reason;
      let child = noReplyChildren.get(key);
      if (child === undefined) noReplyChildren.set(key, (child = noReply.labels({ runtime, reason })));
      child.inc();
    },
    failed: byRuntime(failed),
  };
}
