/**
 * The one React context that reaches the window's stores (STYLE.md habit 17): the provider builds
 * the `AppState` for a transport and runs its feed while mounted. The pending approvals come from
 * their own hook (status/approval-chip.tsx) and ride along: they change a few times an hour, when
 * the panes that show their chips re-render anyway.
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Approval, ClientApi } from '../../../shared/api/contract.js';
import { usePendingApprovals, waitingWakes } from '../status/approval-chip.js';
import { AppState, type AppStateOptions } from './app-state.js';
import { nextFrame } from './next-frame.js';

export interface AppContext {
  readonly state: AppState;
  /** issue 14: approvals waiting for the operator, and the wakes they stand for. */
  readonly approvals: readonly Approval[];
  readonly waiting: ReadonlySet<string>;
}

const Context = createContext<AppContext | null>(null);

export interface AppStateProviderProps extends Omit<AppStateOptions, 'frames'> {
  readonly api: ClientApi;
  readonly children: ReactNode;
}

export function AppStateProvider({ api, children, ...options }: AppStateProviderProps) {
  const [state] = useState(() => new AppState(api, { frames: nextFrame, ...options }));
  useEffect(() => state.start(), [state]);
  const approvals = usePendingApprovals(api, state.onReopened);
  const value = useMemo(() => ({ state, approvals, waiting: waitingWakes(approvals) }), [state, approvals]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useAppState(): AppContext {
  const value = useContext(Context);
  if (value === null) throw new Error('internal: useAppState outside AppStateProvider');
  return value;
}
