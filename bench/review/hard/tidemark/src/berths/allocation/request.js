// An allocation request from the planners: a vessel (through the vessels port), the range in
// which it may come alongside and how long it stays. The range is cut to the booking horizon.

import { ValidationError } from "../../core/errors.js";
import { interval } from "../../core/time.js";
import { required } from "../../core/validate.js";
import { bookingRange } from "../plan/horizon.js";

export const DEFAULT_SUGGESTIONS = 5;

export function readRequest(ctx, vessels, input) {
  required(input, ["vesselId", "earliest", "latest", "stayMinutes"]);
  const vessel = vessels.getVessel(input.vesselId);
  if (!Number.isInteger(input.stayMinutes) || input.stayMinutes <= 0) throw new ValidationError("stayMinutes", "must be a positive whole number");
  if (input.stayMinutes < ctx.config.berthing.minStayMinutes) {
    throw new ValidationError("stayMinutes", `shorter than the minimum stay of ${ctx.config.berthing.minStayMinutes} min`);
  }
  const asked = interval(input.earliest, input.latest);
  const open = bookingRange(ctx);
  const range = { start: Math.max(asked.start, open.start), end: Math.min(asked.end, open.end) };
  if (range.end <= range.start) throw new ValidationError("latest", "the range lies outside the booking horizon");
  const limit = input.limit ?? DEFAULT_SUGGESTIONS;
  if (!Number.isInteger(limit) || limit <= 0) throw new ValidationError("limit", "must be a positive integer");
  return { vessel, range, stayMinutes: input.stayMinutes, limit, berthIds: input.berthIds ?? null };
}
