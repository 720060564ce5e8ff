/** A review as crewbot reads it from the reviewer (`review/parse-findings.ts`): its findings and notes. */
import type { AppliedLearning } from "../learnings/types.js";
import type { Severity } from "../tools/submit-review.js";
import type { Proof } from "../tools/proof-session.js";

export type { Severity };

export interface Finding {
  path: string;
  line: number;
  /** Set for a range `:40-45`. */
  endLine?: number;
  severity: Severity;
  text: string;
  /** The replacement text for `line..endLine` when the reviewer gave a concrete fix (kept as data; not rendered yet). */
  suggestion?: string;
  /** The kind of finding, a few words (`submit_review`'s `kind`); absent in a review given as text. */
  kind?: string;
  /** Its reproducer (`prove`) and what it showed; set by the review job, never by the model's text. */
  proof?: Proof;
  /** The severity a reproducer that did not reproduce downgraded it from. */
  refuted?: Severity;
  /** The id of the repository learning the reviewer says shaped it (submit_review). */
  learning?: string;
  /** Why the reviewer could not back it with a reproducer (submit_review), shown with its `unverified` mark. */
  unprovable?: string;

  /** Read by crewbot itself (the dependency pass, from published tarballs), not the reviewer's claim: no reproducer applies. */
  fact?: true;
}

/**
 * What the reviewer wrote under a severity header without a usable `path:line` (a bullet or a
 * paragraph): kept with its severity so nothing the reviewer said is lost; belongs in the review body.
 */
export interface ReviewNote {
  severity: Severity;
  text: string;
}

export interface ParsedReview {
  findings: Finding[];
  summary: string;
  /** Set by parseReview (possibly empty). */
  notes?: ReviewNote[];
  /** The repository learnings the reviewer says it applied (submit_review), with the findings each kept out. */
  learnings?: AppliedLearning[];
}
