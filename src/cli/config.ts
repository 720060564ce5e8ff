import YAML from "yaml";
import { renderJsonSchemaFile } from "../config/json-schema.js";
import { loadConfigFile } from "../config/load.js";
import { ConfigError } from "../config/validate.js";
import type { ConfigArgs } from "./args.js";
import type { CliIO } from "./io.js";

/**
 * `crewbot config validate|print <file>`: the same checks the app makes on GitHub, so a config
 * can be fixed before it is pushed. Exit 1 on any problem, each on its own line with its key.
 * `crewbot config schema`: the file's JSON Schema, for an editor.
 */
export async function configCommand(args: ConfigArgs, io: CliIO): Promise<number> {
  if (args.action === "schema") {
    io.stdout(renderJsonSchemaFile());
    return 0;
  }
  try {
    const { config, notes } = await loadConfigFile(args.file);
    for (const note of notes) io.stderr(`crewbot: note: ${note}`);
    if (args.action === "print") io.stdout(YAML.stringify(config));
    else io.stdout(`${args.file}: valid\n`);
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`crewbot: ${error.file} is invalid:`);
      // The key's backticks are for GitHub's markdown; a terminal shows the key plainly.
      for (const problem of error.problems) io.stderr(`  - ${problem.replace(/^`([^`]*)`:/, "$1:")}`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr(`crewbot: ${code === "ENOENT" ? `${args.file} does not exist` : (error as Error).message}`);
    return 1;
  }
}
