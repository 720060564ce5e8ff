import { parseDoneMarkers } from "./parse-done.js";

/**
 * Follows the worker's streamed text and says which plan steps it has just reported finished
 * (`[DONE:n]`, or `complete_step` through `mark`), once each, as soon as a marker is complete — also when it arrives split over
 * several deltas. Each step turn resets nothing: markers count for the whole worker step.
 */
export class DoneTracker {
  private text = "";
  private readonly seen = new Set<number>();

  constructor(private readonly stepCount: number) {}

  /** Feeds a text delta; returns the step numbers newly marked done, ascending. */
  push(delta: string): number[] {
    this.text += delta;
    // A marker ends with `]`: nothing new can be complete without one.
    if (!delta.includes("]")) return [];
    const fresh = parseDoneMarkers(this.text, this.stepCount).filter((n) => !this.seen.has(n));
    for (const n of fresh) this.seen.add(n);
    return fresh;
  }

  /** A step reported through `complete_step`: true when it is newly done (a later marker for it is not new). */
  mark(n: number): boolean {
    if (n < 1 || n > this.stepCount || this.seen.has(n)) return false;
    this.seen.add(n);
    return true;
  }

  get done(): number[] {
    return [...this.seen].sort((a, b) => a - b);
  }
}
