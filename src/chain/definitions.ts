import path from "node:path";
import { BUNDLED_AGENTS_DIR, BUNDLED_PROMPTS_DIR, loadAgents } from "./agents.js";
import { loadChains, validateChain } from "./chains.js";
import { loadRules, type StreamRule } from "./rules.js";
import { loadSkills, type SkillSet } from "./skills.js";
import type { AgentDefinition, ChainDefinition } from "./types.js";

/** Where a repository adds or overrides agents and chains (read from its default branch). */
export const REPO_AGENTS_DIR = ".github/crewbot/agents";
export const REPO_PROMPTS_DIR = ".github/crewbot/prompts";

export interface Definitions {
  agents: Map<string, AgentDefinition>;
  chains: Map<string, ChainDefinition>;
  /** The repository's skills (none without a repository), and the broken ones skipped. */
  skills?: SkillSet;
  /** The repository's stream rules (none without a repository); a broken rule file fails the load. */
  rules?: StreamRule[];
}

/** The repository's definitions layered over the bundled ones (first by name wins); every chain validated. */
export async function loadDefinitions(repoRoot?: string): Promise<Definitions> {
  const agentDirs = [BUNDLED_AGENTS_DIR];
  const chainDirs = [BUNDLED_PROMPTS_DIR];
  if (repoRoot) {
    agentDirs.unshift(path.join(repoRoot, REPO_AGENTS_DIR));
    chainDirs.unshift(path.join(repoRoot, REPO_PROMPTS_DIR));
  }
  const agents = await loadAgents(agentDirs, { confineTo: repoRoot });
  const chains = await loadChains(chainDirs, { confineTo: repoRoot });
  for (const chain of chains.values()) validateChain(chain, agents);
  const skills = repoRoot ? await loadSkills(repoRoot) : { skills: [], notes: [] };
  const rules = repoRoot ? await loadRules(repoRoot) : [];
  return { agents, chains, skills, rules };
}
