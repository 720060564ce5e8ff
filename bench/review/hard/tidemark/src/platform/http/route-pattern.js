// Path patterns like "/vessels/:id/calls". A ":name" segment matches one non-empty segment and
// becomes params.name (decoded); everything else matches literally. A trailing slash is ignored.

const trim = (path) => (path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path);

export function compilePattern(pattern) {
  if (!pattern.startsWith("/")) throw new Error(`route pattern must start with /: ${pattern}`);
  const segments = trim(pattern).split("/").slice(1);
  const names = new Set();
  for (const s of segments) {
    if (!s.startsWith(":")) continue;
    if (names.has(s.slice(1))) throw new Error(`route ${pattern} repeats :${s.slice(1)}`);
    names.add(s.slice(1));
  }
  return {
    pattern,
    /** Literal segments first make "/users/me" win over "/users/:id" when both match. */
    specificity: segments.filter((s) => !s.startsWith(":")).length,
    match(path) {
      const parts = trim(path).split("/").slice(1);
      if (parts.length !== segments.length) return null;
      const params = {};
      for (let i = 0; i < segments.length; i++) {
        const want = segments[i];
        const got = parts[i];
        if (want.startsWith(":")) {
          if (!got) return null;
          try {
            params[want.slice(1)] = decodeURIComponent(got);
          } catch {
            return null;
          }
        } else if (want !== got) return null;
      }
      return params;
    },
  };
}
