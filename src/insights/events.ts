/**
 * What crewbot keeps to compute a repository's figures (`types.ts`): one small event per ended job,
 * posted review, first review of a pull request and ended pull request. Kept per repository in the
 * queue's own store (the SQLite file, or Redis), found by time, pruned by retention like the rest.
 */
import type { FindingEnds } from "./types.js";

/** The ends of one pull request's findings, without `posted` (their sum). */
export type EndCounts = Omit<FindingEnds, "posted">;

export type InsightEvent =
  /** A job ended (any kind): its end state and what it cost. Key: the job id. */
  | { type: "job"; key: string; at: number; kind: string; state: string; costUsd: number }
  /** A review job posted its review (findings, or a clean one). Key: the job id. */
  | { type: "review"; key: string; at: number; number: number; findings: { reproduced: number; unverified: number } }
  /** crewbot's first review of a pull request, and when the pull request was opened (when known). Key: its number; the first one stays. */
  | { type: "first-review"; key: string; at: number; number: number; openedAt?: number }
  /** A pull request merged or closed: the ends of the findings crewbot posted there. Key: its number; a later close replaces it. */
  | { type: "pull-request"; key: string; at: number; number: number; merged: boolean; ends: { reproduced: EndCounts; unverified: EndCounts } };

export type InsightEventType = InsightEvent["type"];

/** Events kept once, never replaced: a pull request has one first review. */
export const KEEP_FIRST: ReadonlySet<InsightEventType> = new Set(["first-review"]);

export interface InsightsStore {
  /**
   * Keeps the event for the repository (`owner/repo` as GitHub spells it): one per type and key, a
   * newer one replacing the kept one (except the KEEP_FIRST types). False when a kept one stayed.
   */
  put(repo: string, event: InsightEvent): Promise<boolean>;
  /** The repository's (any case) events with `at` in [from, to), oldest first. */
  between(repo: string, from: number, to: number): Promise<InsightEvent[]>;
  /** Repositories (as GitHub spells them, latest spelling) with an event since `since`. */
  repositories(since: number): Promise<string[]>;
  /** Forgets events older than `before` (epoch ms); returns how many. */
  prune(before: number): Promise<number>;
  close(): Promise<void>;
}

const TYPES: readonly InsightEventType[] = ["job", "review", "first-review", "pull-request"];

/** An event as read back from a store: a damaged or unknown one is dropped (undefined), never counted wrong. */
export function loadEvent(json: string): InsightEvent | undefined {
  try {
    const raw = JSON.parse(json) as Partial<InsightEvent> | null;
    if (!raw || !TYPES.includes(raw.type as InsightEventType) || typeof raw.key !== "string" || !Number.isFinite(raw.at)) return undefined;
    return raw as InsightEvent;
  } catch {
    return undefined;
  }
}

/** The event's checks shared by every store: a malformed one never reaches a backend. */
export function checkEvent(repo: string, event: InsightEvent): void {
  if (typeof repo !== "string" || !/^[^/\s]+\/[^/\s]+$/.test(repo)) throw new TypeError("an insight needs the repository as owner/repo");
  if (!TYPES.includes(event.type) || typeof event.key !== "string" || !event.key || !Number.isSafeInteger(event.at)) throw new TypeError("an insight needs a type, a key and a time");
}
