/** When the window's stores apply batched updates (conversations/last-seq-batch.ts, issue 19). */
import type { FrameScheduler } from '../conversations/last-seq-batch.js';

/** A hidden window gets no animation frames; this bounds the wait there. */
const MAX_WAIT_MS = 100;

/** The next animation frame, or `MAX_WAIT_MS` when frames do not come, whichever is first. */
export const nextFrame: FrameScheduler = (flush) => {
  const frame = requestAnimationFrame(flush);
  const timer = setTimeout(flush, MAX_WAIT_MS);
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};
