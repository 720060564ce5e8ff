/**
 * The share of input the API would serve from its prompt cache, computed from the requests
 * themselves the way the API matches: entries are written at each request's `cache_control`
 * breakpoints (the prefix up to that block, in cache order tools → system → messages), and a
 * breakpoint of a later request reads the longest entry whose prefix is byte-identical, found at
 * the breakpoint itself or at most LOOKBACK_BLOCKS − 1 block boundaries before it.
 */
import { createHash } from "node:crypto";

type Json = Record<string, unknown>;

/** The API looks back about 20 blocks from a breakpoint for an earlier entry. */
export const LOOKBACK_BLOCKS = 20;

export interface Block {
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

/** A key per block for the prefix ending with it, and the prefix's length in bytes. */
function prefixes(blocks: Block[]): Array<{ key: string; bytes: number }> {
  let hash = "";
  let bytes = 0;
  return blocks.map((block) => {
    hash = createHash("sha256").update(hash).update("\0").update(block.bytes).digest("hex");
    bytes += block.bytes.length;
    return { key: hash, bytes };
  });
}

/** The cache: prefix keys written by earlier requests. */
export class PromptCache {
  private readonly entries = new Set<string>();

  /** Bytes of the request read from cache; then writes its own breakpoints' entries. */
  request(blocks: Block[]): number {
    const keys = prefixes(blocks);
    let best = 0;
    blocks.forEach((block, at) => {
      if (!block.breakpoint) return;
      for (let back = at; back >= 0 && back > at - LOOKBACK_BLOCKS; back--) {
        if (this.entries.has(keys[back]!.key)) {
          best = Math.max(best, keys[back]!.bytes);
          break;
        }
      }
    });
    blocks.forEach((block, at) => block.breakpoint && this.entries.add(keys[at]!.key));
    return best;
  }
}

/** Bytes of `next` served from the entries `previous` wrote (one earlier request only). */
export function cachedBytes(previous: Block[], next: Block[]): number {
  const cache = new PromptCache();
  cache.request(previous);
  return cache.request(next);
}

export function cacheShare(bodies: Json[]): { share: number; cached: number; total: number } {
  const cache = new PromptCache();
  let cached = 0;
  let total = 0;
  for (const body of bodies) {
    const blocks = blocksOf(body);
    total += blocks.reduce((n, b) => n + b.bytes.length, 0);
    cached += cache.request(blocks);
  }
  return { share: total === 0 ? 0 : cached / total, cached, total };
}

/** The same bodies with only the newest message marked (the placement before the previous-turn marker), for comparison. */
export function withNewestMarkerOnly(body: Json): Json {
  const messages = (body.messages as Json[]).map((message, i, all) => {
    if (typeof message.content === "string") return message;
    const content = (message.content as Json[]).map((block) => {
      if (i === all.length - 1) return block;
      const { cache_control: _dropped, ...rest } = block;
      return rest;
    });
    return { ...message, content };
  });
  return { ...body, messages };
}
