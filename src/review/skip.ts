/**
 * Whether an automatic review runs (config `review.*`). Every skip has a reason a person can
 * read in the `crewbot/review` check run; `/review` skips none of these.
 */
import type { CrewbotConfig } from "../config/schema.js";

export interface PullRequestFacts {
  title: string;
  author: string;
  /** GitHub's user type of the author: `User`, `Bot`, `Organization`. */
  authorType: string;
  /** The payload's `author_association`; undefined when not known (counts as not trusted). */
  authorAssociation?: string;
  draft: boolean;
  labels: readonly string[];
}

/** The associations `review.authors: trusted` reviews: people the repository's owners let in. */
export const TRUSTED_ASSOCIATIONS: readonly string[] = ["OWNER", "MEMBER", "COLLABORATOR"];

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The reason an automatic review is skipped, or undefined when it runs. Pure. */
export function automaticReviewSkip(pr: PullRequestFacts, review: CrewbotConfig["review"]): string | undefined {
  if (!review.auto) return "automatic reviews are off (review.auto: false); comment /review to ask for one";
  if (pr.draft && !review.drafts) return "the pull request is a draft (review.drafts: false); it is reviewed when marked ready";
  if (review.ignoreAuthors.some((login) => same(login, pr.author))) return `@${pr.author} is in review.ignoreAuthors`;
  const isBot = pr.authorType === "Bot" || /\[bot\]$/i.test(pr.author);
  const includedBot = isBot && review.includeBots.some((login) => same(login, pr.author));
  if (isBot && !includedBot) {
    return `@${pr.author} is a bot (add it to review.includeBots to review its pull requests)`;
  }
  // A bot the config names in includeBots is trusted by that naming: its association is often NONE.
  if (review.authors === "trusted" && !includedBot && !TRUSTED_ASSOCIATIONS.includes(pr.authorAssociation?.toUpperCase() ?? "")) {
    const association = pr.authorAssociation ? `author_association ${pr.authorAssociation}` : "author_association unknown";
    return (
      `@${pr.author} is not a trusted author (${association}; review.authors: trusted reviews pull requests by owners, members and collaborators); ` +
      "a maintainer can comment /review, or set review.authors: everyone"
    );
  }
  const label = pr.labels.find((l) => review.ignoreLabels.some((ignored) => same(ignored, l)));
  if (label !== undefined) return `the pull request has the label "${label}" (review.ignoreLabels)`;
  const title = pr.title.toLowerCase();
  const word = review.ignoreTitles.map((w) => w.trim()).find((w) => w !== "" && title.includes(w.toLowerCase()));
  if (word !== undefined) return `the title contains "${word}" (review.ignoreTitles)`;
  return undefined;
}
