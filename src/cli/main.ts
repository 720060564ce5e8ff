import { parseCliArgs, USAGE } from "./args.js";
import { configCommand } from "./config.js";
import { runCommand } from "./run.js";

/** The `crewbot` command; returns the exit status. */
export async function main(argv: string[]): Promise<number> {
  const parsed = parseCliArgs(argv);
  if (parsed.command === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed.command === "error") {
    process.stderr.write(`crewbot: ${parsed.message}\n\n${USAGE}\n`);
    return 1;
  }
  const io = {
    stdout: (text: string) => process.stdout.write(text),
    stderr: (text: string) => process.stderr.write(`${text}\n`),
    env: process.env,
  };
  if (parsed.command === "config") return configCommand(parsed, io);
  // First Ctrl-C stops the agents and cleans up; the process then exits with the report.
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await runCommand(parsed, { ...io, signal: controller.signal });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
