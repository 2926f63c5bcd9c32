/**
 * `fetch` for the demo runtime's in-process MCP client (issue 19, memory): the SDK's streamable
 * HTTP client passes its one session-long AbortSignal to every request, and Node's fetch
 * (undici) adds an `abort` listener to that signal per request that only a FinalizationRegistry
 * removes (nodejs/node#52635, nodejs/undici#5318): after 10,000 wakes the daemon heap held
 * ~1.7 KB per wake of listeners, requests and their bodies (heap snapshot diff).
 *
 * Each request gets its own short-lived signal instead, following the session's; the follower
 * is removed as soon as a JSON answer arrived (our MCP server answers tool calls as JSON). An
 * SSE answer keeps following, so closing the client still ends its stream.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export const shortSignalFetch: FetchLike = async (url, init) => {
  const outer = init?.signal ?? undefined;
  if (outer === undefined || outer === null) return fetch(url, init);
  const own = new AbortController();
  const follow = () => own.abort(outer.reason);
  if (outer.aborted) follow();
  else outer.addEventListener('abort', follow, { once: true });
  let streaming = false;
  try {
    const res = await fetch(url, { ...init, signal: own.signal });
    streaming = (res.headers.get('content-type') ?? '').includes('text/event-stream');
    return res;
  } finally {
    if (!streaming) outer.removeEventListener('abort', follow);
  }
};
