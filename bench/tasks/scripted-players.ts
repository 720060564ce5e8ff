/**
 * Two scripted "models" for the fake Anthropic server that prove the instrument without a key:
 * the oracle applies each task's reference change through the scaffold's own tools (crewbot's
 * worker `write`s the fixed files, the baseline runs `patch -p1` in bash) and must resolve every
 * task; the null player changes nothing and must resolve none. The reference reaches only these
 * scripted replies, given by the bench — never an agent's prompt or checkout.
 */
import { startFakeAnthropic, type FakeReply, type RecordedRequest, type Script } from "../../test/helpers/fake-anthropic.js";
import { BASELINE_SYSTEM } from "../baseline-agent.js";
import { runSuite, type Attempt, type SuiteOptions } from "./run-suite.js";
import type { Materialised } from "./task-set.js";

export type ScriptedPlayer = "oracle" | "null";
export const SCRIPTED_PLAYERS: readonly ScriptedPlayer[] = ["oracle", "null"];

export interface ScriptedTask {
  id: string;
  issue: string;
  reference: string;
  fixedFiles: Map<string, string>;
}

type Speaker = "scout" | "planner" | "worker" | "reviewer" | "baseline";

const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((b: { text?: unknown }) => (typeof b.text === "string" ? b.text : "")).join("") : "";

function speakerOf(body: Record<string, any>): Speaker | undefined {
  const system = textOf(body.system);
  if (system.startsWith(BASELINE_SYSTEM.slice(0, 60))) return "baseline";
  return /You are the (scout|planner|worker|reviewer) of crewbot/.exec(system)?.[1] as Speaker | undefined;
}

const EOF_MARK = "CREWBOT_BENCH_REFERENCE_EOF";
const use = (name: string, input: unknown) => ({ type: "tool_use" as const, name, input });

/** The reply of `player` at `turn` (replies so far) of `speaker` on `task`; undefined = nothing scripted. */
export function scriptedReply(player: ScriptedPlayer, speaker: Speaker, task: ScriptedTask, turn: number): FakeReply | undefined {
  const files = [...task.fixedFiles.keys()];
  switch (speaker) {
    case "scout":
      return turn === 0 ? { text: `Scout report: the code for this issue is in ${files.join(", ")}.` } : undefined;
    case "planner":
      return turn === 0 ? { text: `## Goal\nFix the issue.\n\n## Plan\n1. Fix ${files.join(", ")}\n\n## Files to Modify\n${files.map((f) => `- ${f}`).join("\n")}\n\n## Risks\nNone.` } : undefined;
    case "worker":
      if (player === "null") return turn === 0 ? { text: "## Completed\nNothing.\n## Files Changed\nNone.\n## Notes\nI made no change." } : undefined;
      if (turn === 0) return { content: [...task.fixedFiles].map(([path, content]) => use("write", { path, content })) };
      return turn === 1 ? { text: `[DONE:1]\n## Completed\nFixed.\n## Files Changed\n${files.map((f) => `- ${f}`).join("\n")}\n## Notes\nNone.` } : undefined;
    case "baseline":
      if (player === "null") return turn === 0 ? { text: "I made no change." } : undefined;
      if (turn === 0) {
        if (task.reference.includes(EOF_MARK)) throw new Error(`task ${task.id}: the reference contains the heredoc marker`);
        return { content: [use("bash", { command: `patch -p1 --no-backup-if-mismatch <<'${EOF_MARK}'\n${task.reference}${EOF_MARK}` })] };
      }
      return turn === 1 ? { text: "Applied the fix." } : undefined;
    default:
      return undefined;
  }
}

/** A fake-server script answering every agent of both scaffolds on every task, by the request's content. */
export function scriptedServer(player: ScriptedPlayer, tasks: ScriptedTask[]): Script {
  return (request: RecordedRequest) => {
    const body = request.body;
    const speaker = speakerOf(body);
    const first = textOf(body.messages?.[0]?.content);
    const task = tasks.find((t) => first.includes(t.issue.split("\n")[0]!));
    if (!speaker || !task) return undefined;
    const turn = (body.messages as Array<{ role: string }>).filter((m) => m.role === "assistant").length;
    return scriptedReply(player, speaker, task, turn);
  };
}

/** A suite on the fake Anthropic server with a scripted player; the server's own checks (script exhausted, refused requests) fail it. */
export async function runScriptedSuite(
  player: ScriptedPlayer,
  opts: Omit<SuiteOptions, "apiKey" | "baseURL">,
): Promise<{ attempts: Attempt[]; requests: RecordedRequest[]; materialised: Map<string, Materialised> }> {
  const known: ScriptedTask[] = [];
  const fake = await startFakeAnthropic(scriptedServer(player, known));
  let result;
  try {
    result = await runSuite({
      ...opts,
      apiKey: "bench-fake-key",
      baseURL: fake.url,
      onMaterialised: async (task, m) => {
        known.push({ id: task.id, issue: task.issue, reference: m.reference, fixedFiles: m.fixedFiles });
        await opts.onMaterialised?.(task, m);
      },
    });
  } finally {
    await fake.close();
  }
  return { ...result, requests: fake.requests };
}
