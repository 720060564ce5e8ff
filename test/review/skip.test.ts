import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type CrewbotConfig } from "../../src/config/schema.js";
import { automaticReviewSkip, type PullRequestFacts } from "../../src/review/skip.js";

type Review = CrewbotConfig["review"];

const pr = (o: Partial<PullRequestFacts> = {}): PullRequestFacts => ({
  title: "Make the greeting friendlier",
  author: "octocat",
  authorType: "User",
  authorAssociation: "COLLABORATOR",
  draft: false,
  labels: [],
  ...o,
});
const cfg = (o: Partial<Review> = {}): Review => ({ ...DEFAULT_CONFIG.review, ...o });

const OFF = "automatic reviews are off (review.auto: false); comment /review to ask for one";
const DRAFT = "the pull request is a draft (review.drafts: false); it is reviewed when marked ready";
const ignored = (login: string) => `@${login} is in review.ignoreAuthors`;
const bot = (login: string) => `@${login} is a bot (add it to review.includeBots to review its pull requests)`;
const label = (name: string) => `the pull request has the label "${name}" (review.ignoreLabels)`;
const untrusted = (login: string, association: string) =>
  `@${login} is not a trusted author (${association}; review.authors: trusted reviews pull requests by owners, members and collaborators); ` +
  "a maintainer can comment /review, or set review.authors: everyone";
const title = (word: string) => `the title contains "${word}" (review.ignoreTitles)`;

describe("automaticReviewSkip", () => {
  it("the defaults are what the table below assumes", () => {
    expect(DEFAULT_CONFIG.review).toMatchObject({ auto: true, authors: "trusted", drafts: false, ignoreAuthors: [], includeBots: [], ignoreLabels: [], ignoreTitles: [] });
  });

  it.each<[string, PullRequestFacts, Review, string | undefined]>([
    ["a plain PR by a person", pr(), cfg(), undefined],
    ["auto off", pr(), cfg({ auto: false }), OFF],
    ["a draft", pr({ draft: true }), cfg(), DRAFT],
    ["a draft with drafts on", pr({ draft: true }), cfg({ drafts: true }), undefined],
    ["an ignored author", pr({ author: "alice" }), cfg({ ignoreAuthors: ["alice"] }), ignored("alice")],
    ["an ignored author, other case (reason names the PR's login)", pr({ author: "Alice" }), cfg({ ignoreAuthors: ["aLICE"] }), ignored("Alice")],
    ["an author not in ignoreAuthors", pr({ author: "alice" }), cfg({ ignoreAuthors: ["alicia", "ali"] }), undefined],
    ["a bot by type", pr({ author: "renovate", authorType: "Bot" }), cfg(), bot("renovate")],
    ["a bot by [bot] suffix only", pr({ author: "dependabot[bot]", authorType: "User" }), cfg(), bot("dependabot[bot]")],
    ["a bot by [BOT] suffix, any case", pr({ author: "Dependabot[BOT]" }), cfg(), bot("Dependabot[BOT]")],
    ["[bot] not at the end is no bot", pr({ author: "x[bot]y" }), cfg(), undefined],
    ["an included bot", pr({ author: "dependabot[bot]", authorType: "Bot" }), cfg({ includeBots: ["dependabot[bot]"] }), undefined],
    ["an included bot, other case", pr({ author: "Dependabot[bot]", authorType: "Bot" }), cfg({ includeBots: ["DEPENDABOT[BOT]"] }), undefined],
    ["another bot than the included one", pr({ author: "renovate[bot]", authorType: "Bot" }), cfg({ includeBots: ["dependabot[bot]"] }), bot("renovate[bot]")],
    ["an included bot still needs the other rules", pr({ author: "dependabot[bot]", authorType: "Bot", labels: ["deps"] }), cfg({ includeBots: ["dependabot[bot]"], ignoreLabels: ["deps"] }), label("deps")],
    ["includeBots does not let a person skip anything", pr({ author: "alice" }), cfg({ includeBots: ["alice"] }), undefined],
    ...(["OWNER", "MEMBER", "COLLABORATOR", "member"] as const).map((a): [string, PullRequestFacts, Review, undefined] => [`a trusted author (${a})`, pr({ authorAssociation: a }), cfg(), undefined]),
    ...(["CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER", "NONE", "MANNEQUIN"] as const).map((a): [string, PullRequestFacts, Review, string] => [
      `an untrusted author (${a})`,
      pr({ author: "stranger", authorAssociation: a }),
      cfg(),
      untrusted("stranger", `author_association ${a}`),
    ]),
    ["an author whose association is not known", pr({ author: "stranger", authorAssociation: undefined }), cfg(), untrusted("stranger", "author_association unknown")],
    ["an untrusted author with review.authors: everyone", pr({ authorAssociation: "FIRST_TIME_CONTRIBUTOR" }), cfg({ authors: "everyone" }), undefined],
    ["an included bot with association NONE is trusted by being named", pr({ author: "dependabot[bot]", authorType: "Bot", authorAssociation: "NONE" }), cfg({ includeBots: ["dependabot[bot]"] }), undefined],
    ["a bot not included gets the bot reason, not the trust one", pr({ author: "renovate[bot]", authorType: "Bot", authorAssociation: "NONE" }), cfg(), bot("renovate[bot]")],
    ["ignoreAuthors comes before the trust rule", pr({ author: "alice", authorAssociation: "NONE" }), cfg({ ignoreAuthors: ["alice"] }), ignored("alice")],
    ["the trust rule comes before labels", pr({ author: "bob", authorAssociation: "NONE", labels: ["deps"] }), cfg({ ignoreLabels: ["deps"] }), untrusted("bob", "author_association NONE")],
    ["an ignored label", pr({ labels: ["wip", "skip-review"] }), cfg({ ignoreLabels: ["skip-review"] }), label("skip-review")],
    ["an ignored label, other case (reason names the PR's label)", pr({ labels: ["Skip-Review"] }), cfg({ ignoreLabels: ["SKIP-review"] }), label("Skip-Review")],
    ["the first of the PR's labels that is ignored", pr({ labels: ["b", "a"] }), cfg({ ignoreLabels: ["a", "b"] }), label("b")],
    ["labels that are not ignored", pr({ labels: ["bug"] }), cfg({ ignoreLabels: ["bugs", "bu"] }), undefined],
    ["a title word", pr({ title: "WIP: rename" }), cfg({ ignoreTitles: ["wip"] }), title("wip")],
    ["a title word anywhere, any case (reason names the config's word)", pr({ title: "Rename [No-Review] things" }), cfg({ ignoreTitles: ["[no-REVIEW]"] }), title("[no-REVIEW]")],
    ["the first configured title word that matches", pr({ title: "draft wip" }), cfg({ ignoreTitles: ["wip", "draft"] }), title("wip")],
    ["a title without the words", pr({ title: "Rename things" }), cfg({ ignoreTitles: ["wip"] }), undefined],
    ["blank title words are ignored", pr({ title: "Rename things" }), cfg({ ignoreTitles: ["", "   "] }), undefined],
    ["a blank word before a real one", pr({ title: "Do not merge yet" }), cfg({ ignoreTitles: [" ", "do not merge"] }), title("do not merge")],
  ])("%s", (_what, facts, review, reason) => {
    expect(automaticReviewSkip(facts, review)).toBe(reason);
  });

  describe("the rules' order: the first rule that applies gives the reason", () => {
    const everything = cfg({ auto: false, ignoreAuthors: ["dependabot[bot]"], ignoreLabels: ["deps"], ignoreTitles: ["bump"] });
    const worst = pr({ author: "dependabot[bot]", authorType: "Bot", draft: true, labels: ["deps"], title: "Bump lodash" });
    it.each<[string, Review, string | undefined]>([
      ["auto off beats everything", everything, OFF],
      ["then the draft", { ...everything, auto: true }, DRAFT],
      ["then ignoreAuthors (before the bot rule)", { ...everything, auto: true, drafts: true }, ignored("dependabot[bot]")],
      ["then the bot", { ...everything, auto: true, drafts: true, ignoreAuthors: [] }, bot("dependabot[bot]")],
      ["then the label", { ...everything, auto: true, drafts: true, ignoreAuthors: [], includeBots: ["dependabot[bot]"] }, label("deps")],
      ["then the title", { ...everything, auto: true, drafts: true, ignoreAuthors: [], includeBots: ["dependabot[bot]"], ignoreLabels: [] }, title("bump")],
      ["and nothing left", { ...everything, auto: true, drafts: true, ignoreAuthors: [], includeBots: ["dependabot[bot]"], ignoreLabels: [], ignoreTitles: [] }, undefined],
    ])("%s", (_what, review, reason) => {
      expect(automaticReviewSkip(worst, review)).toBe(reason);
    });

    it("a draft by a bot gives the draft reason", () => {
      expect(automaticReviewSkip(pr({ author: "renovate[bot]", authorType: "Bot", draft: true }), cfg())).toBe(DRAFT);
    });

    it("includeBots does not override ignoreAuthors", () => {
      const review = cfg({ ignoreAuthors: ["renovate[bot]"], includeBots: ["renovate[bot]"] });
      expect(automaticReviewSkip(pr({ author: "renovate[bot]", authorType: "Bot" }), review)).toBe(ignored("renovate[bot]"));
    });
  });
});
