/**
 * `skill {name}`: a repository skill's instructions and the list of its other files, on demand —
 * the agents' context carries only names and descriptions.
 */
import { z } from "zod";
import { ToolError, type Tool } from "./types.js";

const schema = z
  .object({ name: z.string().min(1).describe("The skill's name, as listed in the context.") })
  .strict();

type SkillInput = z.infer<typeof schema>;

export const skillTool: Tool<SkillInput> = {
  name: "skill",
  description:
    "Read one of the repository's skills (listed by name and description in the context): returns its instructions " +
    "and the absolute paths of its other files, which read can open.",
  schema,
  readOnly: true,
  async run(input, ctx) {
    const skills = ctx.skills ?? [];
    const skill = skills.find((s) => s.name === input.name.trim());
    if (!skill) {
      throw new ToolError(`No skill named ${JSON.stringify(input.name)}. Skills: ${skills.map((s) => s.name).join(", ") || "none"}.`);
    }
    const files = skill.files.length > 0 ? skill.files.map((f) => `- ${f}`).join("\n") : "(none)";
    return { output: `# Skill ${skill.name}\n\n${skill.body}\n\n## Other files of this skill (open them with read)\n${files}`, isError: false };
  },
};
