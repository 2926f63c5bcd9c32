/**
 * The newest TargetSeq of each listed conversation (sidebar unread counts), applied once per
 * animation frame (issue 19). With 20 agents at work, `message.stored` arrives dozens of times a
 * second for conversations not on screen; each used to map the whole conversation list into a
 * new array — a new one even when nothing changed — and re-render the shell. Now the bumps of a
 * frame are applied together (the conversation store keeps the list, and every unchanged
 * conversation object, the same object when none of them raises a lastSeq).
 */

/** Runs `flush` once, soon (the next animation frame: state/next-frame.ts); returns the function that cancels it. */
export type FrameScheduler = (flush: () => void) => () => void;

/** Remembers the highest seq per target and hands them all to `apply` in the next frame. */
export class LastSeqBatch {
  private pending = new Map<string, number>();
  private cancel: (() => void) | null = null;

  constructor(
    private readonly apply: (batch: ReadonlyMap<string, number>) => void,
    private readonly schedule: FrameScheduler,
  ) {}

  bump(target: string, seq: number): void {
    if ((this.pending.get(target) ?? -1) < seq) this.pending.set(target, seq);
    this.cancel ??= this.schedule(() => this.flush());
  }

  /** Stops a scheduled flush (the window goes away); what was pending is dropped. */
  dispose(): void {
    this.cancel?.();
    this.cancel = null;
  }

  private flush(): void {
    if (this.cancel === null) return;
    this.dispose();
    const batch = this.pending;
    this.pending = new Map();
    this.apply(batch);
  }
}
