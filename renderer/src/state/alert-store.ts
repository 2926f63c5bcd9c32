/**
 * Alerts raised by the daemon (`alert.raised`), the newest 50, and those the person dismissed in
 * this window. Neutral status copy, never a chat message (DESIGN.md "Beyond the specs").
 */
import type { Alert } from '../../../shared/api/contract.js';
import { KeyedStore, useStoreKey } from './keyed-store.js';

const MAX_ALERTS = 50;
const KEY = 'alerts';

export class AlertStore extends KeyedStore {
  private list: readonly Alert[] = [];
  private gone: ReadonlySet<string> = new Set();

  get alerts(): readonly Alert[] {
    return this.list;
  }

  get dismissed(): ReadonlySet<string> {
    return this.gone;
  }

  /** An `alert.raised` event: the alert replaces one with its id, and the oldest beyond 50 go. */
  raise(alert: Alert): void {
    this.list = [...this.list.filter((a) => a.id !== alert.id), alert].slice(-MAX_ALERTS);
    this.notify(KEY);
  }

  dismiss(id: string): void {
    this.gone = new Set(this.gone).add(id);
    this.notify(KEY);
  }
}

export function useAlerts(store: AlertStore): { alerts: readonly Alert[]; dismissed: ReadonlySet<string> } {
  const alerts = useStoreKey(store, KEY, () => store.alerts);
  const dismissed = useStoreKey(store, KEY, () => store.dismissed);
  return { alerts, dismissed };
}
