/** A review's proofs (`prove`): the budget and base a job gives the tool, and what each proof found. */
export interface ProofBudget {
  /** Proofs per review. */
  max: number;
  /** Seconds per proof, its head and base runs together. */
  seconds: number;
}

export type ProofOutcome = "reproduced" | "not reproduced" | "error";

/** One run of the reproducer: on the head or on the base. */
export interface ProofRun {
  exitCode: number | null;
  /** The output's last PROOF_TAIL_BYTES. */
  tail: string;
  /** Why the command did not run to an exit code: timed out, could not start, a limit. */
  problem?: string;
  /** The full output, when longer than the tail (an artifact of the job). */
  artifact?: string;
}

export interface ReproducerFile {
  path: string;
  content: string;
}

export interface Proof {
  /** 0-based index of the finding in the `submit_review` call that follows. */
  finding: number;
  command: string;
  files: ReproducerFile[];
  behaviourChange: boolean;
  outcome: ProofOutcome;
  /** One sentence: why this outcome. */
  reason: string;
  head: ProofRun;
  base?: ProofRun;
}

/** What a review's job gives the tool: where the base is, the budget, and where the proofs go. */
export interface ProofSession {
  budget: ProofBudget;
  /** The merge base: a pristine tree of it (exported from the mirror), or why there is none. */
  base: { sha: string; tree?: string; error?: string };
  /** Where the throwaway copies are made (the job's work dir); each is removed after its proof. */
  workDir: string;
  /** Proofs run so far, in call order (a later proof of the same finding replaces an earlier one when read). */
  proofs: Proof[];
  /** What one copy of a tree may hold (default `COPY_LIMITS`). */
  copyLimits?: CopyLimits;
}

export interface CopyLimits {
  maxBytes: number;
  /** Files, folders and links. */
  maxEntries: number;
}
