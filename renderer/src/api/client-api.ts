/**
 * Builds the renderer's `ClientApi` (one named method per call, grouped by domain) from a
 * transport's generic invoke and subscribe. The generic function stays inside the transport;
 * components only see named methods (STYLE.md habit 3).
 */
import {
  apiCalls,
  splitCallName,
  type ApiCallName,
  type ApiEvent,
  type ApiResult,
  type ClientApi,
} from '../../../shared/api/contract.js';

export type Invoke = (name: ApiCallName, request: unknown) => Promise<ApiResult<unknown>>;
export type Subscribe = (listener: (event: ApiEvent) => void) => () => void;

export function buildClientApi(invoke: Invoke, subscribe: Subscribe): ClientApi {
  const domains: Record<string, Record<string, (request: unknown) => Promise<ApiResult<unknown>>>> = {};
  for (const name of Object.keys(apiCalls) as ApiCallName[]) {
    const [domain, verb] = splitCallName(name);
    (domains[domain] ??= {})[verb] = (request: unknown) => invoke(name, request ?? {});
  }
  return { ...domains, events: { subscribe } } as unknown as ClientApi;
}
