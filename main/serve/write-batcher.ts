/**
 * What one WebSocket client is sent in one stretch of code goes out together (issues 19 and 30).
 *
 * - Pushed events (issue 30): the events pushed to a client while the code running now and its
 *   promise jobs run (process.nextTick: the store commit that moves a wake and the pushes it
 *   causes — wake.status, team.updated, agent.updated, message.stored — run in one such stretch)
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
 * - Lazy events (issue 39, `isLazyEvent`): an event the page need not show within a frame is held
 *   until the client's next message that carries an event to show at once, or an answer, and sent
 *   in it, in order; with none within `LAZY_EVENT_MS` it goes alone. Under a busy team they ride
 *   along (other agents' statuses come every few ms) and the page receives fewer messages per wake.
 *
 * No size threshold: every frame is still written whole, in order, to the same socket.
 */
import type { Duplex } from 'node:stream';
import { LAZY_EVENT_MS } from '../../shared/api/api-names.js';

/** The frames held for one client, and whether one of them is to be shown at once. */
interface Held {
  readonly frames: string[];
  urgent: boolean;
}

/** The text of the one WebSocket message carrying `frames` (each a serialised `{"event",…}` frame). */
function eventsMessage(frames: readonly string[]): string {
  return frames.length === 1 ? (frames[0] as string) : `{"events":[${frames.join(',')}]}`;
}

export class WriteBatcher {
  readonly #sockets = new Map<object, Duplex>();
  readonly #corked = new Set<Duplex>();
  /** Per client, the event frames pushed and not yet sent (this stretch's, and lazy ones waiting). */
  readonly #events = new Map<object, Held>();
  /** Per client holding only lazy frames: when they go alone. */
  readonly #lazyTimers = new Map<object, ReturnType<typeof setTimeout>>();
  #scheduled = false;

  /** `send` writes one WebSocket message to a client (`ws.send`). */
  constructor(private readonly send: (client: object, text: string) => void) {}

  /** Registers the socket `ws` writes to; forgotten (and released) when `ws` closes. */
  track(client: { once(event: 'close', listener: () => void): unknown }, socket: Duplex): void {
    this.#sockets.set(client, socket);
    client.once('close', () => {
      this.#sockets.delete(client);
      this.#events.delete(client);
      clearTimeout(this.#lazyTimers.get(client));
      this.#lazyTimers.delete(client);
      if (this.#corked.delete(socket)) socket.uncork();
    });
  }

  /**
   * Holds a pushed event's frame for `client`; sent with the others of this stretch as one message.
   * A `lazy` one (issue 39) waits for the client's next message, at most `LAZY_EVENT_MS`.
   */
  push(client: object, frame: string, lazy = false): void {
    let held = this.#events.get(client);
    if (held === undefined) this.#events.set(client, (held = { frames: [], urgent: false }));
    held.frames.push(frame);
    if (!lazy) {
      held.urgent = true;
      this.hold(client);
    } else if (!held.urgent && !this.#lazyTimers.has(client)) {
      const timer = setTimeout(() => {
        this.#lazyTimers.delete(client);
        this.beforeAnswer(client);
      }, LAZY_EVENT_MS);
      timer.unref();
      this.#lazyTimers.set(client, timer);
    }
  }

  /** Before an answer to `client`: sends the events it has held (lazy ones too), so the answer follows them. */
  beforeAnswer(client: object): void {
    const held = this.#events.get(client);
    if (held === undefined) return;
    this.#events.delete(client);
    clearTimeout(this.#lazyTimers.get(client));
    this.#lazyTimers.delete(client);
    this.send(client, eventsMessage(held.frames));
  }

  /** Call before each write to `client`: holds its socket's writes until the end of this turn. */
  hold(client: object): void {
    const socket = this.#sockets.get(client);
    if (socket === undefined || this.#corked.has(socket)) return;
    socket.cork();
    this.#corked.add(socket);
    if (this.#scheduled) return;
    this.#scheduled = true;
    process.nextTick(() => this.flush(false));
  }

  /**
   * Writes out what is held: at the end of a stretch, the clients' messages with an event to show at
   * once (lazy ones wait on); before closing sockets (`all`), everything.
   */
  flush(all = true): void {
    this.#scheduled = false;
    for (const [client, held] of [...this.#events]) if (all || held.urgent) this.beforeAnswer(client);
    const corked = [...this.#corked];
    this.#corked.clear();
    for (const socket of corked) socket.uncork();
  }
}
