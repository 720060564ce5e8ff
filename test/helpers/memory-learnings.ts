/**
 * A LearningsStore in memory for tests, with the interface's semantics: a candidate per key (made
 * on its first sighting, sightings newest last), candidates oldest first, uses per learning id.
 * The key is the sighting's source and normalised kind, as the stores make it.
 */
import type { Candidate, CandidateSighting, LearningsStore, LearningUse } from "../../src/learnings/types.js";

export const candidateKey = (s: Pick<CandidateSighting, "source" | "kind">): string => `${s.source}:${s.kind.toLowerCase().replace(/\s+/g, " ").trim()}`;

export class MemoryLearnings implements LearningsStore {
  private readonly repos = new Map<string, { candidates: Candidate[]; uses: LearningUse[] }>();

  private of(repoKey: string) {
    let repo = this.repos.get(repoKey);
    if (!repo) this.repos.set(repoKey, (repo = { candidates: [], uses: [] }));
    return repo;
  }

  async addSighting(repoKey: string, sighting: CandidateSighting): Promise<Candidate> {
    const repo = this.of(repoKey);
    const key = candidateKey(sighting);
    let candidate = repo.candidates.find((c) => c.key === key);
    if (!candidate) {
      candidate = { key, source: sighting.source, kind: sighting.kind, paths: [], sightings: [], firstSeen: sighting.at, lastSeen: sighting.at };
      repo.candidates.push(candidate);
    }
    candidate.sightings.push({ ...sighting });
    candidate.lastSeen = Math.max(candidate.lastSeen, sighting.at);
    if (sighting.path) {
      const glob = sighting.path.includes("/") ? `${sighting.path.slice(0, sighting.path.lastIndexOf("/"))}/**` : sighting.path;
      if (!candidate.paths.includes(glob)) candidate.paths.push(glob);
    }
    return structuredClone(candidate);
  }

  async candidates(repoKey: string): Promise<Candidate[]> {
    return structuredClone([...this.of(repoKey).candidates].sort((a, b) => a.firstSeen - b.firstSeen));
  }

  async markProposed(repoKey: string, keys: readonly string[], prUrl: string): Promise<void> {
    for (const c of this.of(repoKey).candidates) if (keys.includes(c.key)) c.proposedIn = prUrl;
  }

  async recordUses(repoKey: string, uses: readonly LearningUse[]): Promise<void> {
    this.of(repoKey).uses.push(...uses.map((u) => ({ ...u })));
  }

  async usage(repoKey: string, since: number) {
    const out = new Map<string, { reviews: number; suppressed: number; shaped: number; lastUsed: number }>();
    const jobs = new Map<string, Set<string>>();
    for (const use of this.of(repoKey).uses.filter((u) => u.at >= since)) {
      const row = out.get(use.id) ?? { reviews: 0, suppressed: 0, shaped: 0, lastUsed: 0 };
      const seen = jobs.get(use.id) ?? new Set<string>();
      if (!seen.has(use.jobId)) row.reviews += 1;
      seen.add(use.jobId);
      jobs.set(use.id, seen);
      row.suppressed += use.suppressed;
      row.shaped += use.shaped;
      row.lastUsed = Math.max(row.lastUsed, use.at);
      out.set(use.id, row);
    }
    return out;
  }

  async lastUses(repoKey: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const use of this.of(repoKey).uses) out.set(use.id, Math.max(out.get(use.id) ?? 0, use.at));
    return out;
  }

  async close(): Promise<void> {}
}
