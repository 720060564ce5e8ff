/**
 * The ci-fix round counts, written once over the keyed-document primitive: the claim rule (one round
 * per head, the same job gets its round back, the stop announced once) and the release rule are the
 * pure functions below; each backend only says where a pull request's count lives.
 */
import { checkLimit, checkRoundKey, type CiFixRounds, type RoundClaim } from "../jobs/ci-fix-rounds.js";
import { pullRequestKey, type DocumentChange, type DocumentCollection, type PullRequestKey } from "./keyed-documents.js";

/** One pull request's count. */
export interface RoundsDoc {
  rounds: number;
  /** The stop was announced. */
  stopped: boolean;
  /** The job that took the last round, until it is released or the rounds run out. */
  lastJob?: string;
  /** The head the last round was taken on, until it is released. */
  lastHead?: string;
  updatedAt: number;
}

export type RoundsDocuments = DocumentCollection<PullRequestKey, RoundsDoc>;

export interface RoundAsk {
  limit: number;
  jobId: string;
  headSha: string;
}

/** The claim rule: see `CiFixRounds.claim`. */
export function claimRound(was: RoundsDoc | undefined, ask: RoundAsk, now: number): DocumentChange<RoundsDoc, RoundClaim> {
  const used = was?.rounds ?? 0;
  if (used > 0 && was?.lastJob === ask.jobId) return { answer: { kind: "round", round: used } };
  if (used > 0 && was?.lastHead === ask.headSha) return { answer: { kind: "taken", round: used } };
  if (used < ask.limit) {
    return { next: { rounds: used + 1, stopped: false, lastJob: ask.jobId, lastHead: ask.headSha, updatedAt: now }, answer: { kind: "round", round: used + 1 } };
  }
  if (was?.stopped) return { answer: { kind: "exhausted", rounds: used, announce: false } };
  const next: RoundsDoc = { rounds: used, stopped: true, updatedAt: now };
  if (was?.lastHead !== undefined) next.lastHead = was.lastHead;
  return { next, answer: { kind: "exhausted", rounds: used, announce: true } };
}

/** The release rule: `round`, and its head, given back only while it is still the last one taken. */
export function releaseRound(was: RoundsDoc | undefined, round: number, now: number): DocumentChange<RoundsDoc, void> {
  if (!was || was.rounds < 1 || was.rounds !== round) return { answer: undefined };
  return { next: { rounds: round - 1, stopped: was.stopped, updatedAt: now }, answer: undefined };
}

export class RoundsDocumentStore implements CiFixRounds {
  constructor(
    private readonly docs: RoundsDocuments,
    private readonly now: () => number,
  ) {}

  async claim(repoKey: string, number: number, limit: number, jobId: string, headSha: string): Promise<RoundClaim> {
    checkRoundKey(repoKey, number);
    checkLimit(limit, jobId, headSha);
    const now = this.now();
    return this.docs.update(pullRequestKey(repoKey, number), (was) => claimRound(was, { limit, jobId, headSha }, now));
  }

  async release(repoKey: string, number: number, round: number): Promise<void> {
    checkRoundKey(repoKey, number);
    const now = this.now();
    await this.docs.update(pullRequestKey(repoKey, number), (was) => releaseRound(was, round, now));
  }

  async get(repoKey: string, number: number): Promise<{ rounds: number; stopped: boolean } | undefined> {
    checkRoundKey(repoKey, number);
    const doc = await this.docs.read(pullRequestKey(repoKey, number));
    return doc && { rounds: doc.rounds, stopped: doc.stopped };
  }

  prune(before: number): Promise<number> {
    return this.docs.prune(before);
  }

  close(): Promise<void> {
    return this.docs.close();
  }
}
