/**
 * `limits.get` (issue 23): the limits the daemon applies, for the renderer to apply before it
 * sends (the composer's byte budget). The daemon's public face carries them (`Daemon.limits`);
 * each transport answers this call from there, beside the daemon's own handlers, so the IPC gate
 * and serve's WebSocket bridge give the same answer. A daemon that names no limits gets the
 * config schema's defaults.
 */
import { DEFAULT_LIMITS, type ApiHandlers, type Limits } from '../../../shared/api/contract.js';

export type LimitsApi = Required<Pick<ApiHandlers, 'limits.get'>>;

export function limitsApi(limits: Partial<Limits> | undefined): LimitsApi {
  const answer: Limits = { maxMessageBytes: limits?.maxMessageBytes ?? DEFAULT_LIMITS.maxMessageBytes };
  return { 'limits.get': async () => answer };
}

/**
 * The handlers a transport answers the call `name` with: the daemon's, or for `limits.get`, when
 * they leave it to the transport, those plus `limits`. Chosen per call, so handlers replaced while
 * the transport runs are the ones that answer.
 */
export function handlersFor(name: string, handlers: ApiHandlers, limits: LimitsApi): ApiHandlers {
  return name === 'limits.get' && handlers['limits.get'] === undefined ? { ...handlers, ...limits } : handlers;
}
