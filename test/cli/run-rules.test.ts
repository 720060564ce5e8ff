import { describe, expect, it } from "vitest";
import { makeRepo } from "../helpers/git-repo.js";
import { inProcessRun } from "./run-in-process.js";

const PLAN = "## Goal\nLog.\n\n## Plan\n1. Add logging to a.ts and b.ts\n";
const toolUse = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });
const NO_CONSOLE = "---\nname: no-console\ntrigger: 'console\\.log'\nagents: [worker]\n---\nUse the logger from src/log.ts, never console.log.\n";

const run = inProcessRun();

describe("crewbot run with the local repository's stream rules", () => {
  it("stops the worker's write of console.log: the file is not written with it, the rule goes to the model, and a second match goes through", async () => {
    const repo = await makeRepo({ "README.md": "hello\n", ".github/crewbot/rules/no-console.md": NO_CONSOLE });
    const r = await run(repo, ["--chain", "implement", "--json", "add logging"], [
      { text: "Scout report." },
      { text: PLAN },
      { content: [toolUse("write", { path: "src/a.ts", content: "console.log('a');\n" })] },
      { content: [toolUse("write", { path: "src/a.ts", content: "log.info('a');\n" })] },
      { content: [toolUse("write", { path: "src/b.ts", content: "console.log('b');\n" })] },
      { text: "[DONE:1]\n## Completed\nBoth.\n## Files Changed\n- `src/a.ts`\n- `src/b.ts`\n## Notes\nOne console.log left in b.ts." },
    ]);

    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.diff).toContain("+log.info('a');");
    expect(result.diff).not.toContain("console.log('a')");
    // `once`: the rule fired once per job, so the second match was written.
    expect(result.diff).toContain("+console.log('b');");
    const afterInterrupt = JSON.stringify(r.requests[3]!.body.messages.at(-1));
    expect(afterInterrupt).toContain('<system-interrupt reason=\\"rule\\" rule=\\"no-console\\">\\nUse the logger from src/log.ts, never console.log.\\n</system-interrupt>');
    expect(r.requests.filter((q) => JSON.stringify(q.body.messages).includes("system-interrupt"))).toHaveLength(3);
    expect(r.stderr).toContain("[worker] turn 1 · rule no-console stopped the reply");
  });

  it("names a broken rule file and runs nothing", async () => {
    const repo = await makeRepo({ ".github/crewbot/rules/bad.md": "---\nname: bad\ntrigger: '(?<=x)y'\n---\nbody\n" });
    const r = await run(repo, ["x"], []);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(".github/crewbot/rules/bad.md: trigger: not a usable regular expression");
    expect(r.requests).toHaveLength(0);
  });
});
