/**
 * `.env` of the working directory into `process.env`, the way Probot's `run` applies it (the
 * file's values win) — but before crewbot reads the environment. Probot's setup page writes the
 * app's credentials there; read only inside `run`, they reached Probot and not crewbot, so
 * `npm start` served an app with no handlers and `npm run worker` refused to start.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";

export function applyDotEnv(file = path.resolve(".env"), env: NodeJS.ProcessEnv = process.env): void {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  Object.assign(env, parseEnv(text));
}
