/** Writes a handler starts but does not await: tracked, so failures are logged and tests can wait. */
export class Background {
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly log: { warn(obj: object, msg?: string): void }) {}

  run(task: Promise<unknown>, what: string): void {
    const tracked = task
      .catch((error: unknown) => this.log.warn({ err: error instanceof Error ? error.message : String(error) }, `background ${what} failed`))
      .finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  /** Resolves when every write started so far has settled. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
