/**
 * One socket write per WebSocket client per event-loop turn (issue 19). Under the 20-agent load
 * a wake pushes several events (message.stored ×2, wake.updated per transition, agent.updated)
 * plus call answers, and each `ws.send` was its own writev syscall: ~2.4 ms of the daemon's CPU
 * per wake. Here the client's socket is corked at its first frame of a turn and uncorked once
 * in the check phase (setImmediate) of that turn, so Node hands the kernel every frame of the
 * turn in one writev.
 *
 * Nothing about the frames changes: `ws` still writes each one whole (header + payload) in call
 * order to the same socket, so a client sees exactly the frames, in exactly the order, it saw
 * before; only the syscalls are fewer. A frame waits at most until the end of the current
 * turn of the event loop (no timer, no size threshold).
 */
import type { Duplex } from 'node:stream';

export class WriteBatcher {
  readonly #sockets = new Map<object, Duplex>();
  readonly #corked = new Set<Duplex>();
  #scheduled: NodeJS.Immediate | null = null;

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
    this.#scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes out everything held (the scheduled flush, and before closing sockets). */
  flush(): void {
    if (this.#scheduled !== null) clearImmediate(this.#scheduled);
    this.#scheduled = null;
    const corked = [...this.#corked];
    this.#corked.clear();
    for (const socket of corked) socket.uncork();
  }
}
