/** `/crewbot insights` carried out: the repository's last 30 days, read from the stores, in one plain reply. */
import { insightsPeriod, renderInsights } from "../insights/render-insights.js";
import type { InsightsSource } from "../insights/types.js";

export const NO_INSIGHTS = "This crewbot keeps no figures of its reviews (no insights store is configured).";

export async function carryOutInsights(
  deps: { insights?: InsightsSource; publicUrl: string; now?: () => number },
  target: { owner: string; repo: string },
  reply: (body: string, what: string) => void,
): Promise<void> {
  if (!deps.insights) return reply(NO_INSIGHTS, "insights reply");
  const { from, to } = insightsPeriod((deps.now ?? Date.now)());
  const repo = `${target.owner}/${target.repo}`;
  reply(renderInsights(repo, await deps.insights.figures(repo, from, to), deps.publicUrl), "insights reply");
}
