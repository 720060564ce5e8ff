// A small router: method + path pattern to a handler. No server here — the caller hands in
// { method, url | path, query, body, token | headers } and gets { status, body }. Handlers receive
// { method, path, params, query, body, user, token } and return { status, body } or throw.

import { tokenOf } from "./auth.js";
import { compilePattern } from "./route-pattern.js";
import { splitUrl } from "./query-string.js";
import { errorResponse, methodNotAllowed, noRoute } from "./responses.js";

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

export function createRouter({ authenticate, log }) {
  const routes = [];

  function add(method, pattern, handler, { public: isPublic = false } = {}) {
    if (!METHODS.has(method)) throw new Error(`unknown method ${method}`);
    const compiled = compilePattern(pattern);
    if (routes.some((r) => r.method === method && r.compiled.pattern === pattern)) throw new Error(`route ${method} ${pattern} twice`);
    routes.push({ method, compiled, handler, isPublic });
  }

  function resolve(method, path) {
    const hits = [];
    for (const route of routes) {
      const params = route.compiled.match(path);
      if (params) hits.push({ route, params });
    }
    if (!hits.length) return { miss: noRoute(path) };
    const same = hits.filter((h) => h.route.method === method).sort((a, b) => b.route.compiled.specificity - a.route.compiled.specificity);
    if (!same.length) return { miss: methodNotAllowed([...new Set(hits.map((h) => h.route.method))]) };
    return same[0];
  }

  async function handle(request) {
    const method = String(request.method ?? "GET").toUpperCase();
    const { path, query: urlQuery } = splitUrl(request.url ?? request.path ?? "/");
    const query = { ...urlQuery, ...(request.query ?? {}) };
    const found = resolve(method, path);
    if (found.miss) return found.miss;
    const token = tokenOf(request);
    try {
      const user = found.route.isPublic ? null : authenticate(token);
      return await found.route.handler({ method, path, params: found.params, query, body: request.body ?? null, user, token });
    } catch (error) {
      return errorResponse(error, log);
    }
  }

  return { add, handle, routes: () => routes.map((r) => `${r.method} ${r.compiled.pattern}`) };
}
