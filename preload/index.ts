/** Sandboxed preload (bundled to CommonJS). Exposes one named method per API call. */
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('agentteam', {});
