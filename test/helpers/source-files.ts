import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** Every file below `dir` whose name `keep` accepts, skipping the folders named in `skip`; absolute paths. */
export function filesUnder(dir: string, keep: (name: string) => boolean, skip: readonly string[] = []): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return skip.includes(name) ? [] : filesUnder(file, keep, skip);
    return keep(name) ? [file] : [];
  });
}

/** The TypeScript files below `dir`. */
export const tsFilesUnder = (dir: string): string[] => filesUnder(dir, (name) => name.endsWith(".ts"));
