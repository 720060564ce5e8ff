/** A plan as crewbot reads it from the planner (`plan/parse-plan.ts`). */
export interface PlanStep {
  /** 1-based, in order of appearance (the planner's own numbers are not trusted). */
  n: number;
  text: string;
}

export interface ParsedPlan {
  goal?: string;
  steps: PlanStep[];
  filesToModify: string[];
  risks?: string;
}
