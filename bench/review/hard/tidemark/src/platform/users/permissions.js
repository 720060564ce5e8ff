// authorize answers "may this user do this, and over which records": it returns the scope from
// the permission table ("all" or "own") or throws. A handler that lists or shows records passes
// the scope on to scope.js; one that ignores it shows an agent every vessel's records.

import { ForbiddenError, UnauthorizedError } from "../errors.js";
import { PERMISSIONS } from "./roles.js";

export function authorize(user, action) {
  if (!user) throw new UnauthorizedError();
  const permission = PERMISSIONS[action];
  if (!permission) throw new Error(`no such action ${action}`);
  const scope = permission[user.role];
  if (!scope || !user.active) throw new ForbiddenError(action, user.role);
  return scope;
}

/** The same question without the throw, for menus and links. */
export function can(user, action) {
  if (!user || !user.active) return false;
  return Boolean(PERMISSIONS[action]?.[user.role]);
}

/** The actions a user may take, in the table's order. */
export function actionsOf(user) {
  return Object.keys(PERMISSIONS).filter((action) => can(user, action));
}
