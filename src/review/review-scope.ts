/**
 * `/review full <instructions>`: the whole pull request again; plain `/review` covers what changed
 * since crewbot's last reviewed head. Only a first word `full` (any case) counts.
 */
export function reviewScope(request: string): { full: boolean; request: string } {
  const match = /^full(?=\s|$)\s*/i.exec(request.trim());
  return match ? { full: true, request: request.trim().slice(match[0].length) } : { full: false, request };
}
