import type { ApplicationFunction } from "probot";
import { onComment } from "./triggers/on-comment.js";
import { onCommentEdited } from "./triggers/on-comment-edited.js";
import { onLabeled } from "./triggers/on-label.js";
import { onPullRequest } from "./triggers/on-pull-request.js";
import { onPullRequestClosed } from "./triggers/on-pull-request-closed.js";
import { AUTOMATIC_REVIEW_EVENTS } from "./triggers/pull-request-event.js";
import { onCheckSuite } from "./triggers/on-check-suite.js";
import { onCheckRunAction } from "./triggers/on-check-run.js";
import { onThreadReply } from "./triggers/on-thread-reply.js";
import type { InstallationPayload } from "./installations/events.js";
import type { TriggerDeps } from "./triggers/deps.js";

/** The Probot app: wiring only; every handler guards, then calls into triggers/. */
export function crewbotApp(deps: TriggerDeps): ApplicationFunction {
  return (app) => {
    app.on("issue_comment.created", (context) => onComment(context, deps));
    app.on("pull_request_review_comment.created", (context) => onComment(context, deps));
    app.on("pull_request_review_comment.created", (context) => onThreadReply(context, deps));
    app.on("issue_comment.edited", (context) => onCommentEdited(context, deps));
    app.on("issues.labeled", (context) => onLabeled(context, deps));
    app.on("installation", (context) => deps.installationEvent("installation", context.payload as unknown as InstallationPayload));
    app.on("installation_repositories", (context) =>
      deps.installationEvent("installation_repositories", context.payload as unknown as InstallationPayload),
    );
    app.on(AUTOMATIC_REVIEW_EVENTS, (context) => onPullRequest(context, deps));
    app.on("pull_request.closed", (context) => onPullRequestClosed(context, deps));
    app.on("check_suite.completed", (context) => onCheckSuite(context, deps));
    app.on("check_run.requested_action", (context) => onCheckRunAction(context, deps));
  };
}
