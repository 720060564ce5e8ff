// Event types the cargo module publishes. Each is published after its store write has succeeded,
// with a payload of ids (subscribers read the records they need from the module).

export const BLOCK_CREATED = "cargo.block.created";
export const CONTAINER_REGISTERED = "cargo.container.registered";
export const VGM_DECLARED = "cargo.container.vgm-declared";
export const CONTAINER_PLACED = "cargo.container.placed";
export const CONTAINER_MOVED = "cargo.container.moved";
export const CONTAINER_GATED_OUT = "cargo.container.gated-out";
export const REEFER_PLUGGED = "cargo.reefer.plugged";
export const REEFER_UNPLUGGED = "cargo.reefer.unplugged";
export const REEFER_ALARM = "cargo.reefer.alarm";
export const REEFER_ALARM_CLEARED = "cargo.reefer.alarm-cleared";
export const APPOINTMENT_BOOKED = "cargo.appointment.booked";
export const APPOINTMENT_CANCELLED = "cargo.appointment.cancelled";
export const DWELL_CHARGED = "cargo.dwell.charged";

/** Every event that changes where a container is or what it weighs: caches of containers listen to these. */
export const CONTAINER_CHANGES = Object.freeze([
  CONTAINER_REGISTERED,
  VGM_DECLARED,
  CONTAINER_PLACED,
  CONTAINER_MOVED,
  CONTAINER_GATED_OUT,
]);
