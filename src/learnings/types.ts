/**
 * Learnings: what writers teach crewbot in its threads, gathered per repository as candidates,
 * proposed to the team as `.github/crewbot/learnings.md` in one pull request, and used (once
 * merged on the default branch) as repository context of the reviewer and the planner.
 */

/** The repository file of merged learnings, and the branch of crewbot's pull request that edits it. */
export const LEARNINGS_PATH = ".github/crewbot/learnings.md";
export const LEARNINGS_BRANCH = "crewbot/learnings";

/** How a writer taught it. */
export type CandidateSource = "dismissed" | "suggestion-accepted" | "suggestion-refused" | "rule";

/** One time a writer taught crewbot something: the thread it happened in, who, when. */
export interface CandidateSighting {
  source: CandidateSource;
  /** The thread's (or comment's) page. */
  url: string;
  /** The pull request it happened on. */
  number: number;
  /** The writer's login. */
  by: string;
  /** Epoch ms. */
  at: number;
  /** The finding's kind (the reviewer's short normalised description), or, for a rule reply, the rule's own words normalised. */
  kind: string;
  /** The finding's text, or the writer's reply: data for the model that words the learning, never instructions. */
  text: string;
  /** The path it happened on (a finding's file). */
  path?: string;
}

/** What the store keeps per candidate: its key, the sightings (newest last) and whether a learnings PR holds it. */
export interface Candidate {
  /** Source and kind normalised: the same lesson taught twice has one key. */
  key: string;
  source: CandidateSource;
  kind: string;
  /** Globs it seems to apply to (from the sightings' paths), e.g. `src/db/**`. */
  paths: string[];
  sightings: CandidateSighting[];
  /** Set once a learnings pull request proposed it (its URL). */
  proposedIn?: string;
  firstSeen: number;
  lastSeen: number;
  /** Sightings ever added (the list keeps the newest 50); absent: `sightings.length`. */
  count?: number;
}

/** One use of a merged learning by a review: which learning (its id), which job, when, and its effect. */
export interface LearningUse {
  id: string;
  jobId: string;
  at: number;
  /** Findings it kept the reviewer from posting. */
  suppressed: number;
  /** Findings it changed (severity, wording). */
  shaped: number;
}

export interface LearningsStore {
  /**
   * Adds one sighting to its candidate (made on first sight); returns the candidate as stored now.
   * A thread already counted for the candidate (same url and source) counts once: `added` false.
   */
  addSighting(repoKey: string, sighting: CandidateSighting): Promise<Candidate & { added?: boolean }>;
  /** Every candidate of the repository, oldest first. */
  candidates(repoKey: string): Promise<Candidate[]>;
  /** Marks candidates as proposed in a pull request. */
  markProposed(repoKey: string, keys: readonly string[], prUrl: string): Promise<void>;
  /** Records what merged learnings one review applied. */
  recordUses(repoKey: string, uses: readonly LearningUse[]): Promise<void>;
  /** Uses since `since` (epoch ms), per learning id: how many reviews, findings suppressed and shaped, and the last use. */
  usage(repoKey: string, since: number): Promise<Map<string, { reviews: number; suppressed: number; shaped: number; lastUsed: number }>>;
  /** The last use of each learning id ever (for staleness), epoch ms. */
  lastUses(repoKey: string): Promise<Map<string, number>>;
  close(): Promise<void>;
}

/** Asks for the learnings pull request to be opened or updated now (a job of its own, queued). */
export interface LearnRequest {
  installationId: number;
  owner: string;
  repo: string;
  /** The pull request (or issue) where the candidate became due, or where `/crewbot learn` was written. */
  number: number;
  /** Why, for the log and the job's record: "a candidate repeated 2 times", "/crewbot learn by @x". */
  reason: string;
}

/** A repository learning the reviewer says it applied (`submit_review`), with the findings it kept out. */
export interface AppliedLearning {
  id: string;
  /** Findings it kept the reviewer from posting. */
  suppressed: number;
}
