import { describe, expect, it } from "vitest";
import { withPermalinks } from "../../src/jobs/ask-job.js";
import { webUrl } from "../../src/github/urls.js";
import { gitSync, makeRepo } from "../helpers/git-repo.js";

const log = () => {
  const warned: string[] = [];
  return { warned, services: { log: { warn: (line: string) => void warned.push(line) } as never } };
};

describe("withPermalinks", () => {
  it("links at the commit on the repository's own web host (GitHub Enterprise too), paths encoded", async () => {
    const root = await makeRepo({ "src/a b.ts": "1\n2\n", "src/c+d.ts": "1\n" });
    const sha = gitSync(root, "rev-parse", "HEAD").trim();
    const { services } = log();
    const text = await withPermalinks("See `src/c+d.ts#L1` and src/a.ts#L1.", { root, sha, web: webUrl("https://ghe.example.com/Codertocat/Hello-World.git"), jobId: "j1" }, services);
    expect(text).toBe(`See [\`src/c+d.ts#L1\`](https://ghe.example.com/Codertocat/Hello-World/blob/${sha}/src/c%2Bd.ts#L1) and \`src/a.ts#L1\` _(not linked: no such file at ${sha.slice(0, 7)})_.`);
  });

  it("links nothing when the commit cannot be read, and says why in the log", async () => {
    const root = await makeRepo({ "a.ts": "1\n" });
    const { warned, services } = log();
    const text = await withPermalinks("See `a.ts#L1`.", { root, sha: "f".repeat(40), web: "https://github.com/o/r", jobId: "j2" }, services);
    expect(text).toBe("See `a.ts#L1` _(not linked: could not be checked)_.");
    expect(warned[0]).toMatch(/^job j2: the answer's citations could not be checked/);
  });
});
