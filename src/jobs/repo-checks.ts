/** A write job's `implement.setup` before the agents and `implement.check` after the worker. */
import type { JobContext } from "../queue/runner.js";
import type { CommandSummary } from "../report/render-commands.js";
import { commandFailure } from "../report/render-commands.js";
import { keepSetupOutOfCommits, runRepoCommands, type CommandPhase } from "../workspace/repo-commands.js";
import { assertRunsRepoCommands } from "./checkout-trust.js";
import type { JobDirs } from "./job-dirs.js";
import type { JobReport } from "./job-report.js";
import type { Ending } from "./outcome.js";
import type { Prepared } from "./prepare.js";
import type { RuntimePort } from "./services.js";

/** Longest any one setup or check command may run (and never longer than the job's own time budget). */
export const COMMAND_TIMEOUT_MS = 10 * 60_000;

/** The setup and check commands of one job, and their results for the comment and the PR body. */
export class RepoChecks {
  readonly results: CommandSummary[] = [];

  constructor(
    private readonly ctx: JobContext,
    private readonly report: JobReport,
    private readonly prepared: Prepared,
    private readonly dirs: JobDirs,
    /** Where the commands run: only the sandbox. */
    private readonly runtime: Pick<RuntimePort, "sandbox">,
    /** The job's notes: files setup changed and that were put back are told there. */
    private readonly notes: string[],
  ) {}

  /**
   * Setup, with the network (installing dependencies needs it). What it leaves in the checkout
   * is kept out of the commits. A failed setup ends the job: agents on a broken checkout would
   * only guess.
   */
  async setup(): Promise<Ending | undefined> {
    await this.run("setup", this.prepared.config.implement.setup, true);
    const reason = commandFailure(this.results);
    if (reason) return { terminal: { kind: "failed", reason }, patch: { commands: [...this.results] } };
    if (this.results.length === 0) return undefined;
    const restored = await keepSetupOutOfCommits(this.prepared.root);
    if (restored.length > 0) this.notes.push(`Setup changed ${restored.join(", ")}; put back, so the commits hold only the worker's changes`);
    return undefined;
  }

  /**
   * The checks on the work committed so far, for a reviewer's context: run like `check`, but
   * not recorded as the job's results (the final checks run again on the final commit).
   */
  async preview(): Promise<CommandSummary[]> {
    const results = await this.run("check", this.prepared.config.implement.check, this.prepared.policy.network, false);
    // The work is committed by now: what the checks leave (build output, changed files) must not
    // end up in the commits of the worker after the reviewer.
    if (results.length > 0) {
      const restored = await keepSetupOutOfCommits(this.prepared.root);
      if (restored.length > 0) this.notes.push(`The checks run for the reviewer changed ${restored.join(", ")}; put back, so the commits hold only the worker's changes`);
    }
    return results;
  }

  /** The checks on the committed work, with the network only when the job's policy allows it (`sandbox.network`). */
  async check(): Promise<string | undefined> {
    await this.run("check", this.prepared.config.implement.check, this.prepared.policy.network);
    return commandFailure(this.results.filter((r) => r.phase === "check"));
  }

  private async run(phase: CommandPhase, commands: readonly string[], network: boolean, record = true): Promise<CommandSummary[]> {
    if (commands.length === 0) return [];
    // Write jobs never start on a stranger's checkout; should one get here, its commands still do not run.
    assertRunsRepoCommands(this.prepared.policy.trust, `${phase} commands`);
    const results = await runRepoCommands(commands, {
      phase,
      root: this.prepared.root,
      scratchDir: this.dirs.scratchDir,
      artifactsDir: this.dirs.artifactsDir,
      sandbox: await this.runtime.sandbox(),
      network,
      timeoutMs: Math.min(COMMAND_TIMEOUT_MS, this.prepared.policy.budgets.maxMinutes * 60_000),
      signal: this.ctx.signal,
      onStart: (command) => this.report.set({ agent: phase, step: undefined, lastTool: command }),
    });
    const summaries = results.map(({ artifact: _artifact, ...summary }) => summary);
    if (record) {
      this.results.push(...summaries);
      this.report.set({ commands: [...this.results] });
    }
    if (this.ctx.signal.aborted) throw new Error(`${phase} was interrupted`);
    return summaries;
  }
}
