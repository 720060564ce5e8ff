/**
 * One review of a pull request: the head checked out with the default branch's agents and
 * config, the diff against the merge base (or only the commits since the last review), the
 * reviewer read-only, and one `POST …/pulls/{n}/reviews` whose inline comments sit only where
 * GitHub accepts them. Shared by automatic reviews (check run) and `/review` (progress comment).
 */
import path from "node:path";
import type { ChainResult } from "../chain/run-chain.js";
import { reviewOf } from "../review/review-result.js";
import type { ParsedReview } from "../review/types.js";
import { repoKey, type ReviewState, type StoredFinding } from "../review/review-store.js";
import { openFindings, storedFinding } from "../review/open-findings.js";
import { safeBlock } from "../text/github-markdown.js";
import type { ReviewFacts } from "../review/render-review.js";
import { buildReview, diffLineText, type BuiltReview, type SeverityCounts } from "../review/build-review.js";
import { parseDiff, positionKey, type DiffFile } from "../review/diff-lines.js";
import { postedFingerprints } from "../review/fingerprint.js";
import { withinPullRequest, type IncrementalDiff } from "../review/incremental-diff.js";
import { reviewContext } from "../review/review-context.js";
import { repoOverview } from "../context/repo-overview.js";
import { selectFiles } from "../review/select-files.js";
import { withoutClosedFindings, type ReviewThread, type ThreadPlan } from "../review/thread-plan.js";
import { countProofs, withProofs } from "../review/proofs.js";
import { EFFORT } from "../review/effort.js";
import { learningCounts, learningsApplied, recordLearningUses, type LearningsApplied } from "../review/learning-uses.js";
import type { ProofSession } from "../tools/proof-session.js";
import { makeCheckout } from "../workspace/checkout.js";
import { diffBetween, isAncestor, mergeBase } from "../workspace/diff.js";
import { checkoutTrust } from "./checkout-trust.js";
import type { JobDirs } from "./job-dirs.js";
import type { JobReport } from "./job-report.js";
import { chainFailure, jobTask, type Ending } from "./outcome.js";
import { runJobChain } from "./job-frame.js";
import { triageReview } from "./review-triage.js";
import { prepareJob, type Prepared } from "./prepare.js";
import { fixedFindings, planWithMirror, readThreads, resolveThreads, threadCommits, type ThreadsRead } from "./resolve-threads.js";
import type { PullRequestRun } from "./pull-request-run.js";
import type { CandidateSighting } from "../learnings/types.js";
import { recordSightings } from "./learning-sightings.js";
import { commitAuthorOf, suggestionSightings } from "./suggestion-sightings.js";
import { dependencyFindings, dependencySection, dependencyCounts, type DependencyPass } from "../review/dependency-section.js";
import { dependencyContext, dependencyPassSkipped, dependencyPaths, detectDependencies, inspectDetected } from "./review-dependencies.js";
import type { PullRequestHead } from "../github/pulls.js";
import { keepReviewPosted } from "./insight-records.js";

export interface ReviewRun extends PullRequestRun {
  dirs: JobDirs;
  head: PullRequestHead;
  /** Where the agents' events go (the progress comment, or nowhere for a check run). */
  events: Pick<JobReport, "event">;
  /** `/review full`: the whole PR again, even when its head was reviewed before (findings posted before are still left out). */
  full: boolean;
}

export interface ReviewOutcome extends ReviewFacts {
  /** Set when the review did not finish (chain failed, budget). */
  failed?: Ending;
  review?: { id: number; url: string };
  /** crewbot's threads someone resolved without the right to (their findings are still open), and crewbot's login there. */
  refused?: { slug: string; threads: ReviewThread[] };
}

interface Diffs {
  full: DiffFile[];
  /** The files to review: the commits since the last review, or the full diff. */
  scope: DiffFile[];
  since?: string;
  /** An incremental review: where inline comments may go, and what the merged base brought in. */
  incremental?: Pick<IncrementalDiff, "commentable" | "leftOut">;
  fullBecause?: string;
  known: string[];
}

const ZERO: SeverityCounts = { critical: 0, warning: 0, suggestion: 0 };
const ONLY_DEPENDENCIES = "Only dependency files changed: this review is what the changed npm packages bring in, read from their published tarballs; no model was asked.";

/** What the check run and the `/review` comment tell of the dependency pass. */
function dependencyFacts(deps: DependencyPass | undefined, notRun: string | undefined): Pick<ReviewFacts, "dependencies"> {
  if (notRun) return { dependencies: { notRun } };
  if (!deps || (deps.review.packages.length === 0 && deps.problems.length === 0)) return {};
  return { dependencies: { ...dependencyCounts(deps.review), problems: deps.problems.length } };
}

/** Model text in a review is data: no pings, no hidden markers, no task boxes. */
function safeReview(review: ParsedReview): ParsedReview {
  return {
    summary: safeBlock(review.summary),
    // A suggestion is committed verbatim, so only a fake fingerprint marker in it is broken up.
    findings: review.findings.map((f) => ({ ...f, text: safeBlock(f.text), ...(f.suggestion !== undefined ? { suggestion: f.suggestion.replace(/crewbot:finding:/gi, "crewbot:finding\u200b:") } : {}) })),
    notes: (review.notes ?? []).map((n) => ({ ...n, text: safeBlock(n.text) })),
    ...(review.learnings ? { learnings: review.learnings } : {}),
  };
}

export async function reviewPullRequest(run: ReviewRun): Promise<ReviewOutcome> {
  const { job, services, head, config } = run;
  const { owner, repo, number } = job.target;
  const { state, threads, threadPlan, fixedNow, proofs, prepared, diffs, sightings, inspection, depsNotRun } = await checkOut(run);
  await recordSightings(services, { job, octokit: run.octokit, config }, sightings);
  const { full, scope, since, incremental, fullBecause, known } = diffs;
  const resolved = threadPlan ? await resolveThreads(job, run.writer, threadPlan, services) : undefined;
  const threadFacts = (leftOut: number, posted: number) => resolved && { threads: { resolved: resolved.resolved, closedLeftOut: leftOut, open: resolved.open.length + posted } };
  const gate = (posted: StoredFinding[] = []) => openGate(state, resolved && threads && { plan: resolved, slug: threads.slug }, fixedNow, posted);
  const deps = await inspection;
  const base = { counts: ZERO, clean: true, inline: 0, repeated: 0, since, fullBecause, costUsd: 0, estimate: false, ...threadFacts(0, 0), ...gate(), ...dependencyFacts(deps, depsNotRun) };
  if (since !== undefined && scope.length === 0) return { ...base, nothingToReview: nothingNew(since, head.headSha, incremental) };
  const selected = selectFiles(scope, { paths: config.review.paths });
  const overview = await repoOverview(prepared.root, { learnings: prepared.learnings?.learnings.length ?? 0 });
  const triage = await triageReview(run, prepared, selected, overview);
  const { selection } = triage;
  // Only dependency files changed: their facts are the review, with no model call.
  const modelless = selection.reviewed.length === 0 && deps !== undefined && dependencySection(deps) !== "";
  if (selection.reviewed.length === 0 && !modelless) {
    const why = selection.notReviewed.length === 0 ? "no changed files" : `no file to review (${selection.notReviewed.map((n) => `${n.path}: ${n.reason}`).slice(0, 5).join("; ")})`;
    return { ...base, selection, nothingToReview: why };
  }

  const depsContext = deps && dependencyContext(deps);
  const { result, budget } = modelless ? { result: undefined, budget: undefined } : await runJobChain(run.ctx, services, run.events, prepared, run.dirs, {
    chain: prepared.chains.get("review")!,
    task: job.trigger.request.trim() ? jobTask(job, "Review") : "(none)",
    context: [overview, ...reviewContext(selection, { number, headSha: head.headSha, since, baseLeftOut: incremental?.leftOut }), ...triage.context, ...(depsContext ? [depsContext] : [])],
    ...(proofs.session ? { proof: proofs.session } : {}),
    budget: triage.budget,
    stepShape: (step) => (step.role === "reviewer" ? triage.shape(prepared.agents.get(step.agent)?.maxTurns) : undefined),
  });
  const figures = budget ? { usage: budget.usage, costUsd: budget.costUsd, estimate: budget.estimate, effort: config.review.effort } : {};
  const failed = result && budget && chainFailure(result, run.ctx.signal, budget.limits);
  if (failed) return { ...base, ...figures, selection, failed };

  // Incremental: inline only on lines the new commits show (RIGHT side; old-side numbers differ).
  const recent = incremental?.commentable;
  const accept = recent && ((path: string, side: "LEFT" | "RIGHT", line: number) => side === "RIGHT" && recent.has(positionKey(path, side, line)));
  const { parsed, kept, dropped, learned } = findingsToPost(run, result, proofs.session, resolved?.closed ?? [], full, prepared, deps);
  const proofsRan = proofs.session !== undefined;
  const section = deps ? dependencySection(deps) : "";
  const build = (maxComments?: number) => buildReview(parsed, full, selection, { alreadyPosted: new Set(known), accept, maxComments, suggestions: config.review.suggestions, proofsRan, dependencies: section });
  const built = build();
  const outcome: ReviewOutcome = {
    ...{ ...base, ...figures, selection, counts: built.counts, clean: built.clean, inline: built.request.comments.length },
    ...{ repeated: built.repeated, repeatedCounts: built.repeatedCounts, annotations: built.annotations },
    notes: (parsed.notes ?? []).map((n) => ({ severity: n.severity })),
    ...(proofsRan ? { proofs: countProofs(kept) } : { noProofs: proofs.why }),
    ...optionalLearnings(learningCounts(learned.uses)),
  };
  let sent = built;
  // A clean review is posted when it tells what the changed dependencies bring in.
  if (!built.clean || section !== "") ({ sent, review: outcome.review } = await postReview(run, built, () => build(0)));
  outcome.inline = sent.request.comments.length;
  Object.assign(outcome, threadFacts(dropped, sent.request.comments.length));
  const posted = postedFingerprints([sent.request.body, ...sent.request.comments.map((c) => c.body)]);
  const postedNow = sent.fresh.map((x) => storedFinding(x.finding, x.fingerprint, head.headSha, outcome.review?.url));
  await services.records.reviews.record(repoKey(owner, repo), number, head.headSha, [...posted], { posted: postedNow, fixed: [...fixedNow] });
  await keepReviewPosted(services, job, postedNow);
  await recordLearningUses(services.records.learnings, repoKey(owner, repo), job.id, learned.uses, services.observe.log);
  Object.assign(outcome, gate(postedNow));
  return outcome;
}

/** What the review knows once the head is checked out: the last review, crewbot's threads, the proofs' session, the diffs. */
interface ReviewCheckout {
  state: ReviewState | undefined;
  threads: ThreadsRead | undefined;
  threadPlan: ThreadPlan | undefined;
  /** The findings of the last review this head fixed. */
  fixedNow: Set<string>;
  proofs: { session?: ProofSession; why?: string };
  prepared: Prepared;
  diffs: Diffs;
  /** Suggestions of crewbot's threads accepted or refused, for the learning candidates. */
  sightings: CandidateSighting[];
  /** The dependency pass under way, when the files under review touch a dependency file. */
  inspection?: Promise<DependencyPass>;
  /** Why dependency files changed and no dependency pass ran (a fork's pull request, turned off). */
  depsNotRun?: string;
}

/** Checks the head out; while the mirror is held, plans the threads, finds the fixed findings, exports the base for proofs and takes the diffs. */
async function checkOut(run: ReviewRun): Promise<ReviewCheckout> {
  const { job, services, head } = run;
  const { owner, repo, number } = job.target;
  const state = await services.records.reviews.get(repoKey(owner, repo), number);
  let diffs: Diffs | undefined;
  // Only a PR crewbot reviewed before has threads of its own to resolve or keep closed.
  const threads = state ? await readThreads(job, run.octokit, services) : undefined;
  let threadPlan: ThreadPlan | undefined;
  let fixedNow = new Set<string>();
  let sightings: CandidateSighting[] = [];
  let inspection: Promise<DependencyPass> | undefined;
  const proofs = await proofSessionFor(run);
  const depsSkipped = dependencyPassSkipped(run, head.headRepo);
  let depsNotRun: string | undefined;

  const prepared = await prepareJob(job, { access: { octokit: run.octokit, token: run.token } }, services, run.dirs, {
    config: run.config,
    ref: head.headSha,
    headRepo: head.headRepo,
    // A partial mirror also needs the last reviewed head's files for the incremental diff.
    hydrate: state ? [state.headSha, ...threadCommits(threads, state.findings)] : undefined,
    withMirror: async (mirror) => {
      if (threads) threadPlan = await planWithMirror(mirror, threads, head.headSha);
      if (state) fixedNow = await fixedFindings(mirror, state.findings, head.headSha);
      if (threads && state && run.config.learnings.enabled) sightings = await suggestionSightings(mirror, threads, state.findings, head.headSha, job, { log: services.observe.log, authorOf: commitAuthorOf(run.octokit, job.target) });
      const base = await mergeBase(mirror, `refs/heads/${head.baseRef}`, head.headSha);
      if (proofs.session) await exportBase(mirror, base, proofs.session, run);
      diffs = await diffsToReview(mirror, base, run, state);
      const detected = depsSkipped ? undefined : await detectDependencies(mirror, base, head.headSha, diffs, run.ctx.signal);
      // The registry is read while the checkout is prepared; a failure is awaited (and thrown) by the review.
      inspection = detected && inspectDetected(run, detected);
      inspection?.catch(() => undefined);
      if (depsSkipped && dependencyPaths(diffs.scope).length > 0) depsNotRun = depsSkipped;
    },
    // The instructions that cover the files the reviewer is given.
    touches: () => selectFiles(diffs!.scope, { paths: run.config.review.paths }).reviewed.map((f) => f.path),
  });
  return { state, threads, threadPlan, fixedNow, proofs, prepared, diffs: diffs!, sightings, ...(inspection ? { inspection } : {}), ...(depsNotRun ? { depsNotRun } : {}) };
}

/** The whole PR's diff, and the part to review: all of it, nothing new, or only the commits since the last review. */
async function diffsToReview(mirror: string, base: string, run: ReviewRun, state: ReviewState | undefined): Promise<Diffs> {
  const { head } = run;
  const full = parseDiff(await diffBetween(mirror, base, head.headSha));
  const known = state?.fingerprints ?? [];
  if (!state) return { full, scope: full, known };
  if (run.full) return { full, scope: full, known, fullBecause: "`/review full` asked for the whole pull request" };
  if (state.headSha === head.headSha) return { full, scope: [], since: head.headSha, known };
  if (await isAncestor(mirror, state.headSha, head.headSha)) {
    // After "Update branch" last..head holds the base's changes: only the PR's own are reviewed.
    const { files, ...incremental } = withinPullRequest(parseDiff(await diffBetween(mirror, state.headSha, head.headSha)), full);
    return { full, scope: files, since: state.headSha, incremental, known };
  }
  return { full, scope: full, known, fullBecause: `the last reviewed commit ${state.headSha.slice(0, 7)} is no longer in the branch (force-push or rebase): full review` };
}

/**
 * The reviewer's review with its proofs joined and the findings of closed threads left out
 * (`dropped` counts them).
 */
function findingsToPost(
  run: ReviewRun,
  result: ChainResult | undefined,
  session: ProofSession | undefined,
  closed: ReviewThread[],
  full: DiffFile[],
  prepared: Pick<Prepared, "learnings">,
  deps: DependencyPass | undefined,
): { parsed: ParsedReview; kept: ParsedReview["findings"]; dropped: number; learned: LearningsApplied } {
  const { job, services } = run;
  // The reviewer's submit_review call when it made one, else its text; no reviewer ran when only dependency files changed.
  const reviewer = result?.steps.findLast((step) => step.role === "reviewer");
  const given = result ? safeReview(reviewOf(reviewer ?? { text: result.output })) : { summary: ONLY_DEPENDENCIES, findings: [], notes: [] };
  // Learnings join before proofs: they only drop a `learning` naming none given, never a finding.
  const learned = appliedLearnings(run, given, prepared);
  const submitted = { ...given, findings: learned.findings };
  // Proofs join their findings by index (in the submit_review call; a review read from prose has
  // no such order) before anything drops one; a refuted finding becomes a suggestion.
  const viaTool = reviewer?.submission?.tool === "submit_review";
  const ran = session?.proofs ?? [];
  if (!viaTool && ran.length > 0) services.observe.log.warn(`job ${job.id}: ${ran.length} proof(s) left out: the reviewer gave its review as text, not through submit_review`);
  const proved = withProofs(submitted.findings, viaTool ? ran : []);
  if (proved.unmatched.length > 0) services.observe.log.warn(`job ${job.id}: ${proved.unmatched.length} proof(s) name no finding of the review (index ${proved.unmatched.map((p) => p.finding).join(", ")})`);
  // The dependency findings join before the closed threads and the fingerprints drop what was posted or dismissed.
  const reviewed = { ...submitted, findings: [...proved.findings, ...(deps ? dependencyFindings(deps.review) : [])] };
  // A thread resolved (by a push or a person) or dismissed by a writer: its finding is never posted again.
  const { kept, dropped } = withoutClosedFindings(reviewed.findings, closed, diffLineText(full));
  return { parsed: { ...reviewed, findings: kept }, kept, dropped, learned };
}

/** The learnings the reviewer says it applied, of those it was given; ids it made up are dropped, with a log line. */
function appliedLearnings(run: ReviewRun, review: ParsedReview, prepared: Pick<Prepared, "learnings">): LearningsApplied {
  const learned = learningsApplied(review, new Set((prepared.learnings?.learnings ?? []).map((l) => l.id)));
  if (learned.unknown.length > 0) {
    run.services.observe.log.warn(`job ${run.job.id}: the reviewer named learnings it was not given (${learned.unknown.join(", ")}); left out of the counts`);
  }
  return learned;
}

const optionalLearnings = (counts: ReturnType<typeof learningCounts>) => (counts ? { learnings: counts } : {});

/**
 * What the gate counts after this review: every kept finding not fixed by this head and not
 * closed in its thread, the threads' own open findings, and those posted now.
 */
function openGate(
  state: ReviewState | undefined,
  threads: { plan: ThreadPlan; slug: string } | undefined,
  fixedNow: ReadonlySet<string>,
  posted: StoredFinding[],
): Pick<ReviewOutcome, "open" | "refused"> {
  const open = openFindings([...(state?.findings ?? []), ...posted], threads?.plan, fixedNow);
  return { open, ...(threads ? { refused: { slug: threads.slug, threads: threads.plan.refused } } : {}) };
}

/**
 * Proofs run only where the reviewer's bash would: `review.prove: auto`, a working sandbox, and
 * never on a fork's pull request (the same condition that takes bash away); as many as the
 * effort level makes of `review.proofBudget.max` (none for one look).
 */
async function proofSessionFor(run: ReviewRun): Promise<{ session?: ProofSession; why?: string }> {
  if (run.config.review.prove === "off") return { why: "review.prove: off" };
  if (checkoutTrust(run.job.target, run.head.headRepo) === "stranger") return { why: "the pull request comes from a fork" };
  const { proofBudget, effort } = run.config.review;
  if (proofBudget.max === 0) return { why: "review.proofBudget.max: 0" };
  const max = EFFORT[effort].proofs(proofBudget.max);
  if (max === 0) return { why: `review.effort: ${effort}` };
  const sandbox = await run.services.runtime.sandbox();
  if (!sandbox.available) return { why: `no OS sandbox: ${sandbox.reason ?? "unavailable"}` };
  return { session: { budget: { ...proofBudget, max }, base: { sha: "" }, workDir: path.join(run.dirs.workDir, "proofs"), proofs: [] } };
}

/** The merge base as a tree of its own (never the checkout), for proofs of a change of behaviour; a failure only costs those proofs. */
async function exportBase(mirror: string, sha: string, session: ProofSession, run: ReviewRun): Promise<void> {
  session.base.sha = sha;
  try {
    session.base.tree = (await makeCheckout({ mirror, ref: sha, dest: path.join(run.dirs.workDir, "proof-base") })).path;
  } catch (error) {
    session.base.error = (error as Error).message;
    run.services.observe.log.warn(`job ${run.job.id}: the merge base ${sha.slice(0, 7)} could not be checked out for proofs (${session.base.error}); proofs of a change of behaviour will end in error`);
  }
}

/** Why an incremental review has nothing to look at: the head was reviewed, or the new commits only merged the base. */
function nothingNew(since: string, headSha: string, incremental: Diffs["incremental"]): string {
  if (since === headSha || !incremental) return `commit ${headSha.slice(0, 7)} was reviewed already`;
  return `the commits since the last review (${since.slice(0, 7)}..${headSha.slice(0, 7)}) only bring in changes of the base branch`;
}

/**
 * One review per run. GitHub rejects a whole review (422) for one bad line; that is never
 * retried unchanged: once more with every finding in the body, then given up.
 */
async function postReview(
  run: ReviewRun,
  built: BuiltReview,
  withoutInline: () => BuiltReview,
): Promise<{ sent: BuiltReview; review: { id: number; url: string } }> {
  const { owner, repo, number } = run.job.target;
  const send = async (review: BuiltReview) => {
    const { data } = await run.writer.write<{ id: number; html_url: string }>("POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews", {
      owner,
      repo,
      pull_number: number,
      commit_id: run.head.headSha,
      ...review.request,
    });
    return { sent: review, review: { id: data.id, url: data.html_url } };
  };
  try {
    return await send(built);
  } catch (error) {
    if ((error as { status?: number }).status !== 422 || built.request.comments.length === 0) throw error;
    run.services.observe.log.warn(`job ${run.job.id}: review refused (422: ${(error as Error).message}); posting it once more with every finding in the body`);
    return send(withoutInline());
  }
}
