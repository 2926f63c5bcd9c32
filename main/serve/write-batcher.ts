/**
 * One socket write per WebSocket client per event-loop turn (issue 19). Under the 20-agent load
 * a wake pushes several events (message.stored ×2, wake.updated per transition, agent.updated)
 * plus call answers, and each `ws.send` was its own writev syscall: ~2.4 ms of the daemon's CPU
 * per wake. Here the client's socket is corked at its first frame and uncorked once the code
 * running now and its promise jobs are done (process.nextTick: the store commit that moves a
 * wake and the pushes it causes run in one such stretch), so Node hands the kernel all those
 * frames in one writev. Not setImmediate: under load that held frames behind every other I/O
 * callback of the loop's poll phase (ACK → chip p50 8 → 29 ms in the many-agents bench).
 *
 * Nothing about the frames changes: `ws` still writes each one whole (header + payload) in call
 * order to the same socket, so a client sees exactly the frames, in exactly the order, it saw
 * before; only the syscalls are fewer. No timer, no size threshold.
 */
import type { Duplex } from 'node:stream';

export class WriteBatcher {
  readonly #sockets = new Map<object, Duplex>();
  readonly #corked = new Set<Duplex>();
  #scheduled = false;

  /** Registers the socket `ws` writes to; forgotten (and released) when `ws` closes. */
  track(client: { once(event: 'close', listener: () => void): unknown }, socket: Duplex): void {
    this.#sockets.set(client, socket);
    client.once('close', () => {
      this.#sockets.delete(client);
      if (this.#corked.delete(socket)) socket.uncork();
    });
  }

  /** Call before each write to `client`: holds its socket's writes until the end of this turn. */
  hold(client: object): void {
    const socket = this.#sockets.get(client);
    if (socket === undefined || this.#corked.has(socket)) return;
    socket.cork();
    this.#corked.add(socket);
    if (this.#scheduled) return;
    this.#scheduled = true;
    process.nextTick(() => this.flush());
  }

  /** Writes out everything held (the scheduled flush, and before closing sockets). */
  flush(): void {
    this.#scheduled = false;
    const corked = [...this.#corked];
    this.#corked.clear();
    for (const socket of corked) socket.uncork();
  }
}
