/**
 * The one gate for `ipcMain` (STYLE.md habit 4; research/electron-style.md (b) 4). It is the
 * only module that imports `ipcMain` (lint enforces it). Every call of the shared contract:
 *   1. the sender is checked here: the main frame, of our origin, of a window we created;
 *   2. then the daemon's API gate answers it (main/daemon/api/api-gate.ts, shared with the
 *      WebSocket bridge of `agentteam serve`): request parsed, handler run, errors mapped,
 *      answer checked in development and tests;
 *   3. the answer is `{ok:true,value}` or `{ok:false,code,message}`. It never throws:
 *      Electron would hand the renderer only an error's message and lose the code.
 * Events of the contract are pushed to our windows on one channel (`EVENTS_CHANNEL`), those of one
 * stretch of code together as one message (issue 30).
 */
import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import type { Observable, Subscription } from 'rxjs';
import { API_CALL_NAMES, EVENTS_CHANNEL, LAZY_EVENT_MS, channelOf, isLazyEvent } from '../../shared/api/api-names.js';
import type { ApiEvent, ApiHandlers, ApiResult } from '../../shared/api/contract.js';
import { answerCall, checkedEvent } from '../daemon/api/api-gate.js';
import { handlersFor, limitsApi } from '../daemon/api/limits-api.js';
import type { DaemonLog } from '../daemon/daemon-log.js';

/** Channels that libraries register on `ipcMain` by themselves; the gate closes them (one gate, no side doors). */
export const LIBRARY_CHANNELS = ['__ELECTRON_LOG__', 'electron-store-get-data'] as const;

export interface IpcGateOptions {
  readonly handlers: ApiHandlers;
  readonly events$: Observable<ApiEvent>;
  /** Whether a frame URL is on our origin (`isAppUrl`, plus the dev server in development). */
  readonly isAllowedOrigin: (url: string) => boolean;
  readonly log: DaemonLog;
  /** Parse every daemon answer and every pushed event against the contract too (development and tests; default true). */
  readonly checkResponses?: boolean;
  /** The daemon's `limits.maxMessageBytes`, named when a message is refused as too large. */
  readonly maxMessageBytes?: number;
}

export interface IpcGate {
  /** Makes a window known: only its main frame may call, and events are pushed to it. */
  addWindow(window: BrowserWindow): void;
  /** Pushes one event of the contract to every known window (after validating it), with the others of this stretch. */
  push(event: ApiEvent): void;
  /** Removes every handler and stops pushing. Idempotent. */
  close(): void;
}

type Sender = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

/** Why a sender is refused, or null when it may call (security checklist 17). */
function refuseSender(
  event: Sender,
  isAllowedOrigin: (url: string) => boolean,
  knownWindowIds: { has(id: number): boolean },
): string | null {
  const frame = event.senderFrame;
  if (frame === null || frame === undefined) return 'the sending frame no longer exists';
  if (frame.parent !== null) return 'only the main frame may call the API';
  if (!isAllowedOrigin(frame.url)) return 'the sending page is not the app';
  const window = BrowserWindow.fromWebContents(event.sender);
  if (window === null || !knownWindowIds.has(window.id)) return 'the sending window is not an app window';
  return null;
}

/** Registers one handler per call of the contract and starts pushing events. */
export function openIpcGate(options: IpcGateOptions): IpcGate {
  const { handlers, isAllowedOrigin, log } = options;
  // `limits.get` is answered from the limit this gate names in its refusals (issue 23).
  const limits = limitsApi(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes });
  const windows = new Map<number, BrowserWindow>();
  let closed = false;

  for (const channel of [...LIBRARY_CHANNELS, ...ipcMain.eventNames().map(String)]) {
    if (ipcMain.listenerCount(channel) > 0) log.warn('ipc: closing a channel opened outside the gate', { channel });
    ipcMain.removeAllListeners(channel);
    ipcMain.removeHandler(channel);
  }

  for (const name of API_CALL_NAMES) {
    ipcMain.handle(channelOf(name), async (event, raw: unknown): Promise<ApiResult<unknown>> => {
      const refused = refuseSender(event, isAllowedOrigin, windows);
      if (refused !== null) {
        log.warn('ipc: sender refused', { call: name, reason: refused });
        return { ok: false, code: 'forbidden_sender', message: `${name}: ${refused}.` };
      }
      const answer = await answerCall(handlersFor(name, handlers, limits), name, raw, log, {
        checkResponse: options.checkResponses ?? true,
        transport: 'ipc',
        ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
      });
      // issue 39: the events held so far (lazy ones too) go before the answer, as they happened.
      if (held.length > 0) flush();
      return answer;
    });
  }

  // issue 30: the events of one stretch of code (process.nextTick: a commit and the pushes it
  // causes), sent to each window as one message, in order. issue 39: lazy events (`isLazyEvent`)
  // wait for the next message with an event to show at once, at most `LAZY_EVENT_MS`.
  let held: ApiEvent[] = [];
  let urgent = false;
  let scheduled = false;
  let lazyTimer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    clearTimeout(lazyTimer);
    lazyTimer = undefined;
    const batch = held;
    held = [];
    urgent = false;
    if (closed || batch.length === 0) return;
    for (const window of windows.values()) {
      const contents = window.webContents;
      // Only a page of ours receives data (will-navigate already keeps others out), checked when sent.
      if (window.isDestroyed() || contents.isDestroyed() || !isAllowedOrigin(contents.getURL())) continue;
      contents.send(EVENTS_CHANNEL, batch);
    }
  };
  const push = (event: ApiEvent): void => {
    if (closed) return;
    // One rule for answers and pushes: checked against the contract only where answers are (development, tests).
    const checked = (options.checkResponses ?? true) ? checkedEvent(event, log, 'ipc') : event;
    if (checked === null) return;
    held.push(checked);
    if (!isLazyEvent(checked.name)) {
      urgent = true;
      if (scheduled) return;
      scheduled = true;
      process.nextTick(() => {
        scheduled = false;
        if (urgent) flush();
      });
    } else if (!urgent && lazyTimer === undefined) {
      lazyTimer = setTimeout(flush, LAZY_EVENT_MS);
      lazyTimer.unref();
    }
  };

  const subscription: Subscription = options.events$.subscribe({
    next: push,
    error: (error: unknown) => log.error('ipc: the daemon event stream failed', { error: String(error) }),
  });

  return {
    addWindow(window) {
      const id = window.id;
      windows.set(id, window);
      window.once('closed', () => windows.delete(id));
    },
    push,
    close() {
      if (closed) return;
      closed = true;
      clearTimeout(lazyTimer);
      subscription.unsubscribe();
      for (const name of API_CALL_NAMES) ipcMain.removeHandler(channelOf(name));
      windows.clear();
    },
  };
}
