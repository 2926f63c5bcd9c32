/**
 * What one WebSocket client is sent in one stretch of code goes out together (issues 19 and 30).
 *
 * - Pushed events (issue 30): the events pushed to a client while the code running now and its
 *   promise jobs run (process.nextTick: the store commit that moves a wake and the pushes it
 *   causes — wake.updated, team.updated, agent.updated, message.stored — run in one such stretch)
 *   are sent as ONE WebSocket message, `{"events":[…]}` (shared/api/ws-protocol.ts), or as the
 *   single `{"event",…}` frame when there is one. With a busy team a page received ~14 messages per
 *   wake, each a task of ~0.4 ms in the page (message dispatch plus a React render of its own);
 *   a batch is one task and one render. Order is kept: an answer to a client first sends what
 *   events it has held (`beforeAnswer`), so a client sees events and answers in the order they
 *   happened, as before.
 * - One socket write (issue 19): the client's socket is corked at its first frame and uncorked at
 *   the same point, so an answer and the event message of one stretch reach the kernel in one
 *   writev (each `ws.send` was its own syscall, ~2.4 ms of the daemon's CPU per wake with 20
 *   agents). Not setImmediate: under load that held frames behind every other I/O callback of the
 *   loop's poll phase (ACK → chip p50 8 → 29 ms in the many-agents bench; re-measured in issue 30
 *   with the busy-team bench: no CPU saved, ACK → chip p95 20 → 26 ms).
 *
 * No timer, no size threshold: every frame is still written whole, in order, to the same socket.
 */
import type { Duplex } from 'node:stream';

/** The text of the one WebSocket message carrying `frames` (each a serialised `{"event",…}` frame). */
function eventsMessage(frames: readonly string[]): string {
  return frames.length === 1 ? (frames[0] as string) : `{"events":[${frames.join(',')}]}`;
}

export class WriteBatcher {
  readonly #sockets = new Map<object, Duplex>();
  readonly #corked = new Set<Duplex>();
  /** Per client, the event frames pushed in this stretch, not yet sent. */
  readonly #events = new Map<object, string[]>();
  #scheduled = false;

  /** `send` writes one WebSocket message to a client (`ws.send`). */
  constructor(private readonly send: (client: object, text: string) => void) {}

  /** Registers the socket `ws` writes to; forgotten (and released) when `ws` closes. */
  track(client: { once(event: 'close', listener: () => void): unknown }, socket: Duplex): void {
    this.#sockets.set(client, socket);
    client.once('close', () => {
      this.#sockets.delete(client);
      this.#events.delete(client);
      if (this.#corked.delete(socket)) socket.uncork();
    });
  }

  /** Holds a pushed event's frame for `client`; sent with the others of this stretch as one message. */
  push(client: object, frame: string): void {
    const held = this.#events.get(client);
    if (held !== undefined) return void held.push(frame);
    this.#events.set(client, [frame]);
    this.hold(client);
  }

  /** Before an answer to `client`: sends the events it has held, so the answer follows them. */
  beforeAnswer(client: object): void {
    const held = this.#events.get(client);
    if (held === undefined) return;
    this.#events.delete(client);
    this.send(client, eventsMessage(held));
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
    for (const client of [...this.#events.keys()]) this.beforeAnswer(client);
    const corked = [...this.#corked];
    this.#corked.clear();
    for (const socket of corked) socket.uncork();
  }
}
