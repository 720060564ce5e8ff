/**
 * An in-memory LearningsStore for tests that need one before (or without) SQLite and Redis: the
 * same semantics — sightings grouped by candidate key, candidates oldest first, uses per learning
 * id within a window, the last use ever.
 */
import type { Candidate, CandidateSighting, LearningsStore, LearningUse } from "../../src/learnings/types.js";

const keyOf = (s: Pick<CandidateSighting, "source" | "kind">) => `${s.source}:${s.kind.toLowerCase().replace(/\s+/g, " ").trim()}`;

/** A glob for a sighting's path: its folder and below (`src/db/**`), or the file itself at the root. */
const globOf = (p: string) => (p.includes("/") ? `${p.slice(0, p.lastIndexOf("/"))}/**` : p);

export class MemoryLearningsStore implements LearningsStore {
  private readonly candidatesByRepo = new Map<string, Map<string, Candidate>>();
  private readonly usesByRepo = new Map<string, LearningUse[]>();
  closed = false;

  async addSighting(repoKey: string, sighting: CandidateSighting): Promise<Candidate> {
    const repo = this.candidatesByRepo.get(repoKey) ?? new Map<string, Candidate>();
    this.candidatesByRepo.set(repoKey, repo);
    const key = keyOf(sighting);
    const found = repo.get(key) ?? { key, source: sighting.source, kind: sighting.kind, paths: [], sightings: [], firstSeen: sighting.at, lastSeen: sighting.at };
    found.sightings.push({ ...sighting });
    found.lastSeen = Math.max(found.lastSeen, sighting.at);
    if (sighting.path && !found.paths.includes(globOf(sighting.path))) found.paths.push(globOf(sighting.path));
    repo.set(key, found);
    return structuredClone(found);
  }

  async candidates(repoKey: string): Promise<Candidate[]> {
    return [...(this.candidatesByRepo.get(repoKey)?.values() ?? [])].sort((a, b) => a.firstSeen - b.firstSeen).map((c) => structuredClone(c));
  }

  async markProposed(repoKey: string, keys: readonly string[], prUrl: string): Promise<void> {
    for (const key of keys) {
      const c = this.candidatesByRepo.get(repoKey)?.get(key);
      if (c) c.proposedIn = prUrl;
    }
  }

  async recordUses(repoKey: string, uses: readonly LearningUse[]): Promise<void> {
    this.usesByRepo.set(repoKey, [...(this.usesByRepo.get(repoKey) ?? []), ...uses.map((u) => ({ ...u }))]);
  }

  async usage(repoKey: string, since: number): Promise<Map<string, { reviews: number; suppressed: number; shaped: number; lastUsed: number }>> {
    const out = new Map<string, { reviews: number; suppressed: number; shaped: number; lastUsed: number }>();
    const jobs = new Map<string, Set<string>>();
    for (const u of (this.usesByRepo.get(repoKey) ?? []).filter((x) => x.at >= since)) {
      const row = out.get(u.id) ?? { reviews: 0, suppressed: 0, shaped: 0, lastUsed: 0 };
      const seen = jobs.get(u.id) ?? new Set<string>();
      if (!seen.has(u.jobId)) row.reviews += 1;
      seen.add(u.jobId);
      jobs.set(u.id, seen);
      row.suppressed += u.suppressed;
      row.shaped += u.shaped;
      row.lastUsed = Math.max(row.lastUsed, u.at);
      out.set(u.id, row);
    }
    return out;
  }

  async lastUses(repoKey: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const u of this.usesByRepo.get(repoKey) ?? []) out.set(u.id, Math.max(out.get(u.id) ?? 0, u.at));
    return out;
  }

  /** Every use recorded for the repository, in order (for assertions). */
  recorded(repoKey: string): LearningUse[] {
    return [...(this.usesByRepo.get(repoKey) ?? [])];
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
