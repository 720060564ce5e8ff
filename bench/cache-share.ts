/**
 * The share of input that falls inside a byte-identical prefix the previous request marked for
 * caching — what the API can serve from cache. Computed from the requests themselves, in the
 * API's cache order (tools → system → messages), block by block.
 */

type Json = Record<string, unknown>;

interface Block {
  bytes: string;
  breakpoint: boolean;
}

function strip(block: Json): { json: string; breakpoint: boolean } {
  const { cache_control, ...rest } = block;
  return { json: JSON.stringify(rest), breakpoint: cache_control !== undefined };
}

/** Every cacheable unit of a request, in prefix order. */
export function blocksOf(body: Json): Block[] {
  const out: Block[] = [];
  const push = (prefix: string, block: Json) => {
    const { json, breakpoint } = strip(block);
    out.push({ bytes: prefix + json, breakpoint });
  };
  for (const tool of (body.tools as Json[] | undefined) ?? []) push("tool:", tool);
  const system = body.system;
  if (typeof system === "string") out.push({ bytes: `system:${system}`, breakpoint: false });
  else for (const block of (system as Json[] | undefined) ?? []) push("system:", block);
  for (const [i, message] of ((body.messages as Json[]) ?? []).entries()) {
    const content = message.content;
    const role = `${i}:${String(message.role)}:`;
    if (typeof content === "string") out.push({ bytes: role + content, breakpoint: false });
    else for (const block of content as Json[]) push(role, block);
  }
  return out;
}

/** Bytes of `next` served from the cache entries `previous` wrote (its breakpoints). */
export function cachedBytes(previous: Block[], next: Block[]): number {
  let best = 0;
  let bytes = 0;
  for (let i = 0; i < previous.length && i < next.length; i++) {
    if (previous[i]!.bytes !== next[i]!.bytes) break;
    bytes += next[i]!.bytes.length;
    if (previous[i]!.breakpoint) best = bytes;
  }
  return best;
}

export function cacheShare(bodies: Json[]): { share: number; cached: number; total: number } {
  let cached = 0;
  let total = 0;
  const seen: Block[][] = [];
  for (const body of bodies) {
    const blocks = blocksOf(body);
    total += blocks.reduce((n, b) => n + b.bytes.length, 0);
    // A request can read any entry an earlier request wrote (5-minute cache).
    cached += Math.max(0, ...seen.map((earlier) => cachedBytes(earlier, blocks)));
    seen.push(blocks);
  }
  return { share: total === 0 ? 0 : cached / total, cached, total };
}
