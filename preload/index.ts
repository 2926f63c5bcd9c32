/**
 * Sandboxed preload, bundled to CommonJS (research/electron-feasibility.md §5). Exposes
 * exactly the shared `ClientApi` as `window.agentteam`: one named method per call of the
 * contract (`agentteam.wakes.list(req)`), each a fixed `ipcRenderer.invoke` on that call's
 * channel, and `events.subscribe(listener)` returning its unsubscribe function. No generic
 * send/invoke/on is exposed (STYLE.md habit 3; Electron's context-isolation guide).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { clientApiOverIpc, type PreloadIpc } from './client-api.js';

const ipc: PreloadIpc = {
  invoke: (channel, request) => ipcRenderer.invoke(channel, request),
  on: (channel, listener) => {
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => ipcRenderer.removeListener(channel, wrapped);
  },
};

contextBridge.exposeInMainWorld('agentteam', clientApiOverIpc(ipc));
