import { describe, expect, it } from "vitest";
import { firstFailure, MODEL_CHARS, MODEL_LINES, runForModel } from "../../src/tools/proof-output.js";

const COPY = "/var/lib/crewbot/jobs/j1/work/proof-2/head";

// `node --test` (TAP) on a failing reproducer, as a proof's head run keeps it.
const TAP = [
  "TAP version 13",
  "# Subtest: adds",
  "not ok 1 - adds",
  "  ---",
  "  duration_ms: 3.75",
  `  location: '${COPY}/test/repro.test.mjs:4:1'`,
  "  failureType: 'testCodeFailure'",
  "  error: |-",
  "    Expected values to be strictly equal:",
  "    ",
  "    0 !== 4",
  "    ",
  "  code: 'ERR_ASSERTION'",
  "  stack: |-",
  `    TestContext.<anonymous> (file://${COPY}/test/repro.test.mjs:4:27)`,
  "    Test.runInAsyncScope (node:async_hooks:206:9)",
  "    Test.run (node:internal/test_runner/test:796:25)",
  "    node:internal/process/task_queues:140:7",
  "  ...",
  "1..1",
  "# tests 1",
  "# pass 0",
  "# fail 1",
].join("\n");

// A plain `node repro.mjs` that throws, behind a long banner and a deep stack.
const THROWN = [
  ...Array.from({ length: 40 }, (_, i) => `building fixture ${i}`),
  "node:internal/modules/run_main:123",
  "    triggerUncaughtException(",
  "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
  "",
  "0 !== 4",
  "",
  `    at file://${COPY}/repro.mjs:3:8`,
  ...Array.from({ length: 60 }, (_, i) => `    at frame${i} (node:internal/modules/esm/module_job:${i}:25)`),
  "  code: 'ERR_ASSERTION'",
  "Node.js v20.20.2",
].join("\n");

describe("what the model reads of a proof's run", () => {
  it("starts at the first failure, keeps the error and the first frame, drops the rest of the stack and the copies' paths", () => {
    const { text } = firstFailure(TAP);
    expect(text.split("\n")[0]).toBe("not ok 1 - adds");
    expect(text).toContain("0 !== 4");
    expect(text).toContain("location: 'test/repro.test.mjs:4:1'");
    expect(text).toContain("TestContext.<anonymous> (test/repro.test.mjs:4:27)");
    expect(text).not.toMatch(/proof-2|node:internal|runInAsyncScope/);
  });

  it("skips what came before the failure and bounds what follows", () => {
    const { text, more } = firstFailure(THROWN);
    expect(text.split("\n")[0]).toBe("AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:");
    expect(text).toContain("    at repro.mjs:3:8");
    expect(text).not.toMatch(/building fixture|frame\d|\/var\/lib/);
    expect(text).toContain("Node.js v20.20.2");
    expect(more).toBe(0);
    const long = firstFailure(`Error: boom\n${Array.from({ length: 200 }, (_, i) => `detail ${i} ${"x".repeat(40)}`).join("\n")}`);
    expect(long.text.split("\n").length).toBeLessThanOrEqual(MODEL_LINES);
    expect(long.text.length).toBeLessThanOrEqual(MODEL_CHARS);
    expect(long.more).toBeGreaterThan(150);
  });

  it("gives each run its exit code; a passing base only that, a passing head its last lines", () => {
    expect(runForModel("head", { exitCode: 1, tail: TAP })[0]).toBe("## head: exit code 1");
    expect(runForModel("base", { exitCode: 0, tail: "# pass 1\n# fail 0\n" })).toEqual(["## base: exit code 0"]);
    expect(runForModel("head", { exitCode: 0, tail: Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n") })).toEqual(["## head: exit code 0", Array.from({ length: 8 }, (_, i) => `line ${i + 12}`).join("\n")]);
    expect(runForModel("head", { exitCode: null, tail: "", problem: "timed out after 30 s" })).toEqual(["## head: timed out after 30 s", "(no output)"]);
  });

  it("says how much it left out and where the whole output is", () => {
    const tail = `Error: boom\n${Array.from({ length: 100 }, (_, i) => `detail ${i}`).join("\n")}`;
    expect(runForModel("head", { exitCode: 1, tail, artifact: "/data/artifacts/proof-1-head.log" }).at(-1)).toBe(`(… ${101 - MODEL_LINES} more lines; the whole output: /data/artifacts/proof-1-head.log)`);
  });
});
