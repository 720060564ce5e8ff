/**
 * An issue label as a command: `crewbot:plan` or `crewbot:implement` (the names in
 * `triggers.labels`) added by someone with write permission starts that job as if the command had
 * been written with no extra instructions. Pure: the handler (on-label.ts) reads the names and the
 * permission first.
 */
import { canWrite } from "../github/permission.js";
import type { CommentPayload, Decision } from "./comment-command.js";
import { isBot, jobGround } from "./comment-command.js";

/** The parts of an `issues.labeled` payload the trigger reads. */
export interface LabelPayload {
  action: string;
  label?: { name: string };
  issue: NonNullable<CommentPayload["issue"]>;
  repository: CommentPayload["repository"] & { id?: number };
  installation?: { id: number };
  sender: { login: string; type: string; id?: number };
}

export type LabelCommand = "plan" | "implement";

/** Which command a label is, by the repository's `triggers.labels` ("" turns one off); undefined for any other label. */
export function labelCommand(name: string, labels: Record<LabelCommand, string>): LabelCommand | undefined {
  for (const kind of ["plan", "implement"] as const) if (labels[kind] !== "" && labels[kind] === name) return kind;
  return undefined;
}

/** After the labeler's permission was read (none for a bot): start the job, or say why not. */
export function decideLabel(payload: LabelPayload, kind: LabelCommand, permission: string | undefined, deliveryId: string, now = Date.now()): Decision {
  const { sender } = payload;
  const label = payload.label!.name;
  if (isBot(sender)) {
    return { action: "reply", body: `The label \`${label}\` was added by a bot (${sender.login}); crewbot starts only for people with write access, so nothing was started.`, reason: "label by a bot" };
  }
  if (!permission || !canWrite(permission)) {
    return {
      action: "reply",
      body: `Sorry @${sender.login}, the label \`${label}\` starts crewbot only when someone with write, maintain or admin permission adds it. Nothing was started.`,
      reason: "label by someone without write access",
    };
  }
  if (payload.issue.locked) return { action: "reply", body: "This conversation is locked; crewbot does not start here.", reason: "locked" };
  return {
    action: "enqueue",
    job: {
      ...jobGround(payload, Boolean(payload.issue.pull_request)),
      deliveryId,
      kind,
      // The comments up to the label's adding are the context, as for a command.
      trigger: { sender: sender.login, senderId: sender.id, request: "", label, commentCreatedAt: new Date(now).toISOString() },
    },
  };
}
