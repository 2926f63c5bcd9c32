/**
 * One turn at a time per session: a prompt submitted while a turn runs waits here and starts
 * after that turn ends, so every delivery and every final-check is its own turn with its own
 * turn end (Codex's `turn/start` on an active turn would steer it instead; OpenCode would fold
 * it into the running loop; Claude Code would fold it into the turn and count it as seen by
 * the turn's Stop hook). Each waiting submit resolves when its own turn was accepted. An interrupt
 * ends the running turn only: the prompts waiting behind it start after it (issue 38: Stop ends
 * only the stopped turn's wakes).
 */
import type { DeliverResult } from './runtime-adapter.js';

type Starter = (text: string) => Promise<DeliverResult>;
type Failure = Extract<DeliverResult, { ok: false }>;

interface Waiting {
  /** Starts this entry's turn (writes its prompt); resolves whether the runtime accepted it. */
  readonly start: () => Promise<DeliverResult>;
  /** issue 38: asked right before the prompt starts; false withdraws it (its wakes were paused or ended). */
  readonly due: (() => boolean) | undefined;
  readonly resolve: (result: DeliverResult) => void;
}

const WITHDRAWN: Failure = Object.freeze({
  ok: false,
  code: 'withdrawn',
  message: 'not written: its wakes were paused or ended while it waited for the running turn',
});

/** issue 38: the answer for a delivery whose wakes were paused or ended before it was written. */
export function withdrawn(): Failure {
  return WITHDRAWN;
}

export class PromptQueue {
  readonly #start: Starter;
  readonly #waiting: Waiting[] = [];
  #busy = false;

  constructor(start: Starter) {
    this.#start = start;
  }

  /** True from an accepted submit until its turn ends. */
  get busy(): boolean {
    return this.#busy;
  }
  get waiting(): number {
    return this.#waiting.length;
  }

  submit(text: string, due?: () => boolean): Promise<DeliverResult> {
    return new Promise((resolve) => {
      this.#waiting.push({ start: () => this.#start(text), due, resolve });
      this.#pump();
    });
  }

  /** Ahead of every waiting prompt (a final-check continues the turn that just ended: contract §8.3). */
  submitFirst(text: string): Promise<DeliverResult> {
    return new Promise((resolve) => {
      this.#waiting.unshift({ start: () => this.#start(text), due: undefined, resolve });
      this.#pump();
    });
  }

  /**
   * issue 38: `start` ahead of every waiting prompt, once the running turn ended (a compaction
   * after an overflow, then its continuation): accepted, it holds the queue like a prompt's turn.
   */
  runFirst(start: () => Promise<DeliverResult>): Promise<DeliverResult> {
    return new Promise((resolve) => {
      this.#waiting.unshift({ start, due: undefined, resolve });
      this.#pump();
    });
  }

  /** The running turn ended: the next waiting prompt starts. */
  turnEnded(): void {
    this.#busy = false;
    this.#pump();
  }

  /** Refuses every waiting prompt and forgets the running turn (the process is gone). */
  clear(failure: Failure): void {
    this.#busy = false;
    for (const w of this.#waiting.splice(0)) w.resolve(failure);
  }

  #pump(): void {
    if (this.#busy) return;
    let next = this.#waiting.shift();
    // issue 38: a prompt whose wakes were paused or ended while it waited is never written.
    while (next?.due !== undefined && !next.due()) {
      next.resolve(WITHDRAWN);
      next = this.#waiting.shift();
    }
    if (next === undefined) return;
    this.#busy = true;
    void next.start().then(
      (result) => {
        if (!result.ok) {
          // Not accepted: no turn runs, so the next prompt may start.
          this.#busy = false;
          next.resolve(result);
          this.#pump();
          return;
        }
        next.resolve(result);
      },
      (err: unknown) => {
        this.#busy = false;
        next.resolve({
          ok: false,
          code: 'write_failed',
          message: `internal: ${err instanceof Error ? err.message : String(err)}`,
        });
        this.#pump();
      },
    );
  }
}
