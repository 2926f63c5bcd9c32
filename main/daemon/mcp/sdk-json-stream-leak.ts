/**
 * Workaround for MCP SDK 1.32.2 modelcontextprotocol/typescript-sdk#2559 (fix PR #2747 open):
 * with `enableJsonResponse`, the streamable HTTP server transport registers one `_streamMapping`
 * entry per POST that carries a request and never removes it once the JSON response is sent
 * (only the SSE path calls `stream.cleanup()`). Each entry keeps the settled `resolveJson` and,
 * through it, the whole Response: ~7 KB of daemon heap per tool call, forever (bench/RESULTS.md,
 * memory: +26.6 % over 800 wakes).
 *
 * Why a sweep and not stateless mode (a fresh transport + Server per request): stateless mode
 * drops the MCP session the daemon binds to one agent at `initialize` (mcp-server.ts: another
 * agent's token on that session is refused, sessions close on revoke) and rebuilds a Server per
 * call; the sweep keeps the SDK's behaviour and only releases what the SDK itself considers done.
 *
 * "Done" uses the SDK's own bookkeeping: a JSON-mode stream (it has `resolveJson`) whose request
 * ids are all gone from `_requestToStreamMapping` was answered (send() deletes them right after
 * resolving). A stream still waiting for a response keeps its request ids and is left alone, so
 * concurrent calls on one session are safe. If a future SDK renames these internals the sweep
 * does nothing (test/unit/main/daemon/mcp/sdk-json-stream-leak.test.ts then fails, which is the
 * signal to drop this file after upgrading).
 */
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

interface SdkInternals {
  readonly _webStandardTransport?: {
    readonly _streamMapping?: Map<string, { readonly resolveJson?: unknown }>;
    readonly _requestToStreamMapping?: Map<unknown, string>;
  };
}

/**
 * The transport's JSON-mode stream entries (answered or not; the standalone GET SSE stream is not
 * one); undefined if the SDK internals changed.
 */
export function jsonStreamEntries(transport: StreamableHTTPServerTransport): number | undefined {
  const streams = (transport as unknown as SdkInternals)._webStandardTransport?._streamMapping;
  if (streams === undefined) return undefined;
  let n = 0;
  for (const entry of streams.values()) if (typeof entry.resolveJson === 'function') n += 1;
  return n;
}

/** Removes the transport's answered JSON-mode stream entries; returns how many were removed. */
export function releaseAnsweredJsonStreams(transport: StreamableHTTPServerTransport): number {
  const inner = (transport as unknown as SdkInternals)._webStandardTransport;
  const streams = inner?._streamMapping;
  const requests = inner?._requestToStreamMapping;
  if (streams === undefined || requests === undefined || streams.size === 0) return 0;
  const waiting = new Set(requests.values());
  let released = 0;
  for (const [streamId, entry] of streams) {
    if (typeof entry.resolveJson !== 'function' || waiting.has(streamId)) continue;
    streams.delete(streamId);
    released += 1;
  }
  return released;
}
