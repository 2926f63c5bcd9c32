/**
 * A free TCP port on 127.0.0.1, chosen by the daemon for runtimes that cannot pick their own
 * (OpenCode: `--port 0` still binds 4096, research/runtimes.md §3). The port is free when
 * returned; a rare race with another process is handled by the caller's readiness retry.
 */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('internal: no port assigned'))));
    });
  });
}
