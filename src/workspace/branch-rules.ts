/**
 * What GitHub says when a branch rule refuses crewbot's branch, in words that name the rule and
 * what to do: git push rejections (`GH006: Protected branch update failed`, `GH013: Repository
 * rule violations found`) and the REST answers of the Git Data API's ref updates (422/409/403).
 */
import { GitError } from "./git.js";
import { BRANCH_PREFIX } from "./refs.js";

/** The config line that lets GitHub make (and sign) crewbot's commits. */
export const API_COMMITS_HINT = "`implement.commits: api` in .github/crewbot.yml";

/** A push or ref update that a branch rule (protection or ruleset) refused. */
export class BranchRuleError extends GitError {
  override name = "BranchRuleError";
  constructor(
    message: string,
    /** The rules GitHub named, as it worded them ("Commits must have verified signatures."). */
    readonly rules: string[],
    /** What the user can do about it, one sentence. */
    readonly advice: string,
  ) {
    super(message);
  }
}

const HEADER = /\b(GH006|GH013)\b/;
/** Lines of GitHub's rejection that are not rules: the header, links, counts, commit ids, git's own lines. */
const NOT_A_RULE = /^(?:(?:error: )?GH0\d\d|Review all repository rules|Found \d+ violations?|[0-9a-f]{7,64}$|Resolving deltas|To |error: failed to push|!)/i;

/**
 * The rules a git push rejection names, in GitHub's words, or undefined when stderr is not a
 * branch-rule rejection. GitHub prints them as `remote: - <rule>` (rulesets) or
 * `remote: error: <rule>` (classic branch protection).
 */
export function rulesFromPushError(stderr: string): { code: string; rules: string[] } | undefined {
  const code = HEADER.exec(stderr)?.[1];
  if (!code) return undefined;
  const rules: string[] = [];
  for (const raw of stderr.split(/\r?\n/)) {
    const match = /^remote:\s*(?:-\s+|error:\s+)(.+?)\s*$/.exec(raw.trim());
    const text = match?.[1]?.trim();
    if (!text || NOT_A_RULE.test(text) || rules.includes(text)) continue;
    rules.push(text);
  }
  return { code, rules };
}

/**
 * The rules a REST error names: GitHub answers a refused ref update with
 * `Repository rule violations found\n\n<rule>\n\n…` (sometimes in `errors`), or undefined when
 * the message is not about rules or protection.
 */
export function rulesFromApiError(message: string, errors: readonly unknown[] = []): string[] | undefined {
  const texts = [message, ...errors.map((e) => (typeof e === "string" ? e : (e as { message?: unknown })?.message)).filter((m): m is string => typeof m === "string")];
  const all = texts.join("\n");
  if (!/rule violations|protected branch|Cannot update this protected ref|Reference cannot be updated|Changes must be made through|creations being restricted|verified signatures/i.test(all)) return undefined;
  const rules: string[] = [];
  for (const line of all.split(/\n/)) {
    const text = line.replace(/\s+-\s+https:\/\/docs\.github\.com\S*$/, "").replace(/^\s*-\s*/, "").trim();
    if (!text || /^Repository rule violations found\.?$/i.test(text) || rules.includes(text)) continue;
    rules.push(text);
  }
  return rules.length > 0 ? rules : ["a repository rule"];
}

/**
 * What to do about the rules, as one sentence. The branches to exclude are crewbot's own, or the
 * one refused when it is another's (a Renovate branch a ci-fix round pushes to).
 */
export function adviceFor(rules: readonly string[], branch = BRANCH_PREFIX): string {
  const all = rules.join(" ");
  const exclude = branch.startsWith(BRANCH_PREFIX) ? "`crewbot/**` branches" : `the branch \`${branch.replace(/`/g, "'")}\``;
  if (/signature|signed/i.test(all)) {
    return `set ${API_COMMITS_HINT}: GitHub then makes crewbot's commits itself and signs them (Verified)`;
  }
  if (/pull request|approving review|status check|protected ref|creations being restricted|Cannot create ref|cannot be updated|Cannot update/i.test(all)) {
    return `ask a repository admin to exclude ${exclude} from the rule, or to add the app to the rule's bypass list (Settings → Rules)`;
  }
  return `ask a repository admin to exclude ${exclude} from the rule or let the app bypass it (Settings → Rules)`;
}

/** `"A." and "B."` as one readable clause. */
export function quoteRules(rules: readonly string[]): string {
  const quoted = rules.map((rule) => `“${rule.replace(/\.$/, "")}”`);
  return quoted.length <= 1 ? (quoted[0] ?? "a branch rule") : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

/** A push rejection by a branch rule as a BranchRuleError, or undefined when it is something else. */
export function pushRuleError(error: GitError, branch: string): BranchRuleError | undefined {
  const found = rulesFromPushError(error.stderr);
  if (!found) return undefined;
  const rules = found.rules.length > 0 ? found.rules : ["a protected branch rule"];
  const advice = adviceFor(rules, branch);
  const failure = new BranchRuleError(`pushing to ${branch} was refused by a branch rule (${found.code}): ${quoteRules(rules)}; ${advice}`, rules, advice);
  failure.stderr = error.stderr;
  return failure;
}
