// Who may do what. Each action maps a role to the records it reaches: "all" of them, or "own" —
// an agent reaches only records of vessels its agency represents (scope.js applies that). A role
// missing from an action's row may not do it at all.

export const ROLES = Object.freeze(["harbour_master", "planner", "clerk", "agent"]);

const row = (entries) => Object.freeze(entries);

export const PERMISSIONS = Object.freeze({
  "vessels:read": row({ harbour_master: "all", planner: "all", clerk: "all", agent: "own" }),
  "calls:read": row({ harbour_master: "all", planner: "all", clerk: "all", agent: "own" }),
  "calls:export": row({ harbour_master: "all", planner: "all", clerk: "all", agent: "own" }),
  "invoices:read": row({ harbour_master: "all", clerk: "all", agent: "own" }),
  "invoices:export": row({ harbour_master: "all", clerk: "all" }),
  "notifications:read": row({ harbour_master: "all", clerk: "all", agent: "own" }),
  "audit:read": row({ harbour_master: "all", planner: "all" }),
  "users:read": row({ harbour_master: "all", clerk: "all" }),
  "users:manage": row({ harbour_master: "all" }),
  "flags:manage": row({ harbour_master: "all" }),
});

export const ACTIONS = Object.freeze(Object.keys(PERMISSIONS));

/** The roles that may do an action, for the docs and the users screen. */
export const rolesFor = (action) => Object.keys(PERMISSIONS[action] ?? {});
