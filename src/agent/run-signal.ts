/**
 * One abort signal for a run: fires when the caller aborts (`/crewbot cancel`) or when the job's
 * wall-time budget runs out. It goes to the SDK call and to the tools, so an in-flight request
 * and running tool processes both stop, and `reason` tells the loop which stop it was.
 */
export type StopCause = "aborted" | "maxMinutes";

/** setTimeout's maximum; a longer budget would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class RunSignal {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly onParentAbort = () => this.stop("aborted");
  cause: StopCause | undefined;

  constructor(
    private readonly parent: AbortSignal | undefined,
    remainingMs: number,
  ) {
    if (parent?.aborted) this.stop("aborted");
    else parent?.addEventListener("abort", this.onParentAbort, { once: true });
    if (!this.cause) {
      if (remainingMs <= 0) this.stop("maxMinutes");
      else {
        this.timer = setTimeout(() => this.stop("maxMinutes"), Math.min(remainingMs, MAX_TIMER_MS));
        this.timer.unref();
      }
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Resolves when the run is stopped: raced against work that may ignore the signal (a stuck tool). */
  readonly stopped: Promise<StopCause> = new Promise((resolve) => {
    this.controller.signal.addEventListener("abort", () => resolve(this.cause ?? "aborted"), { once: true });
  });

  private stop(cause: StopCause): void {
    if (this.controller.signal.aborted) return;
    this.cause = cause;
    this.controller.abort(new Error(cause === "aborted" ? "aborted" : "time budget reached"));
  }

  /** Frees the timer and the parent listener; the run's signal stays as it is. */
  dispose(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener("abort", this.onParentAbort);
  }
}
