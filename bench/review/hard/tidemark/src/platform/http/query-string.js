// Query strings to a plain object. A repeated key keeps its last value (the API takes no lists in
// the query); "+" is a space; a key without "=" is the empty string. Values stay strings: the
// handler that reads one converts it (edge.js, paging-query.js).

export function parseQuery(search) {
  const out = {};
  const text = search.startsWith("?") ? search.slice(1) : search;
  if (!text) return out;
  for (const part of text.split("&")) {
    if (!part) continue;
    const at = part.indexOf("=");
    const rawKey = at === -1 ? part : part.slice(0, at);
    const rawValue = at === -1 ? "" : part.slice(at + 1);
    const key = decode(rawKey);
    if (key === null || key === "") continue;
    const value = decode(rawValue);
    if (value === null) continue;
    out[key] = value;
  }
  return out;
}

function decode(s) {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return null; // a malformed escape drops the pair rather than failing the request
  }
}

/** Splits "/calls?status=berthed" into its path and query. */
export function splitUrl(url) {
  const at = url.indexOf("?");
  return at === -1 ? { path: url, query: {} } : { path: url.slice(0, at), query: parseQuery(url.slice(at)) };
}

export function formatQuery(params) {
  const pairs = Object.entries(params).filter(([, v]) => v !== undefined && v !== null);
  return pairs.length ? "?" + pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&") : "";
}
