/** The figures `/insights`, `/crewbot insights` and tests read, over whichever store keeps the events. */
import type { InsightsStore } from "./events.js";
import { figuresOf, weeksOf } from "./figures.js";
import type { Figures, InsightsSource, WeekFigures } from "./types.js";

export function insightsSource(store: Pick<InsightsStore, "between" | "repositories">): InsightsSource {
  return {
    async figures(repo: string, from: number, to: number): Promise<Figures> {
      return figuresOf(await store.between(repo, from, to), from, to);
    },
    async weeks(repo: string, from: number, to: number): Promise<WeekFigures[]> {
      return weeksOf(await store.between(repo, from, to), from, to);
    },
    repositories: (since) => store.repositories(since),
  };
}
