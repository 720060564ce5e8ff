/**
 * The findings of crewbot's still open on a pull request, as the gate counts them: every finding
 * the store kept (with the severity it was posted with) that no push fixed and whose thread no
 * writer closed, and every open thread of crewbot's the store does not know (posted by a version
 * that kept no findings, or a store that lost them: the severity is read from crewbot's own label
 * in the comment, critical when there is none). Pure.
 */
import type { Finding, Severity } from "./types.js";
import type { GateFinding } from "./gate.js";
import type { StoredFinding } from "./review-store.js";
import { threadFindingText, threadFingerprint, type ReviewThread, type ThreadPlan } from "./thread-plan.js";
import { withoutSuggestionBlock } from "./suggestion.js";
import { suggestionPrint } from "./suggestion-applied.js";
import { normaliseKind } from "../learnings/candidates.js";

export interface OpenFinding extends GateFinding {
  path: string;
  line: number;
  endLine?: number;
  /** One line of its text. */
  title: string;
  /** Its thread, or the review it sits in. */
  url?: string;
  fingerprint?: string;
}

const TITLE_CHARS = 120;

/** The first line of a finding's words, at most 120 characters. */
export function findingTitle(text: string): string {
  const first = withoutSuggestionBlock(text).split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
  return first.length <= TITLE_CHARS ? first : `${first.slice(0, TITLE_CHARS - 1)}…`;
}

/** A posted finding as the store keeps it (its kind normalised, its suggestion as a print). */
export function storedFinding(f: Finding, fingerprint: string, commit: string, url: string | undefined): StoredFinding {
  const kind = f.kind ? normaliseKind(f.kind) : "";
  return {
    ...{ fingerprint, severity: f.severity, path: f.path, line: f.line, ...(f.endLine !== undefined ? { endLine: f.endLine } : {}) },
    ...{ title: findingTitle(f.text), commit, ...(url ? { url } : {}), ...(f.proof?.outcome === "reproduced" ? { reproduced: true } : {}) },
    ...(kind ? { kind } : {}),
    ...(f.suggestion !== undefined ? { suggestion: suggestionPrint(f.suggestion) } : {}),
  };
}

const LABELS: Record<string, Severity> = { critical: "critical", warning: "warning", suggestion: "suggestion" };

/** The severity crewbot wrote at the start of its comment (`**Critical** — …`); critical when it cannot be read. */
export function labelledSeverity(body: string): Severity {
  const label = /^\*\*(\w+)\*\*/.exec(body.trim())?.[1]?.toLowerCase();
  return (label && LABELS[label]) || "critical";
}

function fromThread(thread: ReviewThread, fingerprint: string | undefined): OpenFinding {
  const top = thread.comments[0];
  const line = thread.line ?? thread.originalLine ?? 0;
  const start = thread.startLine ?? thread.originalStartLine;
  return {
    ...{ severity: labelledSeverity(top?.body ?? ""), path: thread.path, line: start ?? line, ...(start !== null && start !== line ? { endLine: line } : {}) },
    ...{ title: findingTitle(threadFindingText(top?.body ?? "")), ...(top?.url ? { url: top.url } : {}), ...(fingerprint ? { fingerprint } : {}) },
  };
}

/**
 * The open findings. `plan` is what crewbot's threads say (undefined when they could not be read:
 * then only a fix closes a kept finding); `fixedNow` the kept findings this head fixed.
 */
export function openFindings(stored: readonly StoredFinding[], plan: Pick<ThreadPlan, "open" | "closed"> | undefined, fixedNow: ReadonlySet<string> = new Set()): OpenFinding[] {
  const closed = new Set((plan?.closed ?? []).flatMap((t) => threadFingerprint(t) ?? []));
  const openThreads = new Map((plan?.open ?? []).flatMap((t) => {
    const fp = threadFingerprint(t);
    return fp ? [[fp, t] as const] : [];
  }));
  const known = new Set(stored.map((f) => f.fingerprint));
  const open: OpenFinding[] = [];
  for (const f of stored) {
    if (f.fixed || fixedNow.has(f.fingerprint) || closed.has(f.fingerprint)) continue;
    const url = openThreads.get(f.fingerprint)?.comments[0]?.url ?? f.url;
    open.push({ severity: f.severity, path: f.path, line: f.line, ...(f.endLine !== undefined ? { endLine: f.endLine } : {}), title: f.title, fingerprint: f.fingerprint, ...(url ? { url } : {}), ...(f.reproduced ? { reproduced: true } : {}) });
  }
  for (const thread of plan?.open ?? []) {
    const fp = threadFingerprint(thread);
    if (fp === undefined || !known.has(fp)) open.push(fromThread(thread, fp));
  }
  return open;
}
