/**
 * Amazon's side of Bedrock's wire, written from AWS's specifications and not from the SDK that
 * talks to it: the binary event-stream framing of a streamed reply, and the check of a request's
 * Signature Version 4 (recomputed with the test's keys, as AWS does).
 */
import { createHash, createHmac } from "node:crypto";
import type http from "node:http";
import { crc32 } from "node:zlib";

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
};

/** Headers of string type (7): name length (1 byte), name, type, value length (2 bytes), value. */
function encodeHeaders(headers: Record<string, string>): Buffer {
  return Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const n = Buffer.from(name, "utf8");
      const v = Buffer.from(value, "utf8");
      const len = Buffer.alloc(2);
      len.writeUInt16BE(v.length, 0);
      return Buffer.concat([Buffer.from([n.length]), n, Buffer.from([7]), len, v]);
    }),
  );
}

/** One message: prelude (total length, headers length, CRC32 of both), headers, payload, CRC32 of all before it. */
export function eventStreamFrame(headers: Record<string, string>, payload: Buffer): Buffer {
  const encoded = encodeHeaders(headers);
  const prelude = Buffer.concat([u32(12 + encoded.length + payload.length + 4), u32(encoded.length)]);
  const message = Buffer.concat([prelude, u32(crc32(prelude)), encoded, payload]);
  return Buffer.concat([message, u32(crc32(message))]);
}

/** A `chunk` event as InvokeModelWithResponseStream sends one: the model's JSON event, base64, beside padding. */
export function chunkFrame(event: unknown, padding = "abcdefghijklmnop"): Buffer {
  const bytes = Buffer.from(JSON.stringify(event), "utf8").toString("base64");
  return eventStreamFrame({ ":event-type": "chunk", ":content-type": "application/json", ":message-type": "event" }, Buffer.from(JSON.stringify({ bytes, p: padding })));
}

/** An exception inside the stream (`modelStreamErrorException`, `throttlingException`, …). */
export function exceptionFrame(type: string, message: string): Buffer {
  return eventStreamFrame({ ":exception-type": type, ":content-type": "application/json", ":message-type": "exception" }, Buffer.from(JSON.stringify({ message })));
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** RFC 3986 encoding, as SigV4 wants each path segment (encoded once more than on the wire, outside S3). */
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export interface SigV4Keys {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
}

/**
 * Why AWS would refuse the request's signature, or undefined when it is valid: the algorithm,
 * the credential scope (key, date, region, service), the signed headers (host and x-amz-date at
 * least, every one present), the time (15 minutes either way), the payload's hash, and the
 * signature itself recomputed from the canonical request.
 */
export function sigV4Problem(req: http.IncomingMessage, body: Buffer, keys: SigV4Keys, now = Date.now()): string | undefined {
  const auth = req.headers.authorization;
  if (!auth) return "Missing Authentication Token";
  const m = /^(\S+) Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return `Authorization header is malformed: ${auth.slice(0, 60)}`;
  const [, algorithm, keyId, date, region, service, signedList, signature] = m as unknown as string[];
  if (algorithm !== "AWS4-HMAC-SHA256") return `Unsupported algorithm ${algorithm}`;
  if (keyId !== keys.accessKeyId) return "The security token included in the request is invalid.";
  if (region !== keys.region) return `Credential should be scoped to a valid region, not '${region}'.`;
  if (service !== keys.service) return `Credential should be scoped to correct service: '${keys.service}'.`;
  const amzDate = req.headers["x-amz-date"];
  if (typeof amzDate !== "string" || !/^\d{8}T\d{6}Z$/.test(amzDate)) return "Missing or malformed X-Amz-Date";
  if (!amzDate.startsWith(date!)) return "Credential date does not match X-Amz-Date";
  const at = Date.parse(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
  if (Math.abs(now - at) > 15 * 60_000) return "Signature expired";
  const signed = signedList!.split(";");
  for (const needed of ["host", "x-amz-date"]) if (!signed.includes(needed)) return `SignedHeaders must include ${needed}`;
  if (req.headers["x-amz-security-token"] !== undefined && !signed.includes("x-amz-security-token")) return "x-amz-security-token must be signed";
  const payloadHash = sha256(body);
  const claimed = req.headers["x-amz-content-sha256"];
  if (claimed !== undefined && claimed !== payloadHash) return "The provided 'x-amz-content-sha256' header does not match what was computed.";
  const url = new URL(req.url ?? "/", "http://x");
  const canonicalHeaders = signed
    .map((name) => {
      const value = req.headers[name];
      if (value === undefined) return undefined;
      return `${name}:${(Array.isArray(value) ? value.join(",") : value).trim().replace(/\s+/g, " ")}\n`;
    })
    .join("");
  if (signed.some((name) => req.headers[name] === undefined)) return "a signed header is missing from the request";
  const canonicalQuery = [...url.searchParams.entries()]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const canonicalUri = url.pathname.split("/").map(rfc3986).join("/");
  const canonicalRequest = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signedList, payloadHash].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const key = ["aws4_request"].reduce((k, part) => hmac(k, part), hmac(hmac(hmac(`AWS4${keys.secretAccessKey}`, date!), region!), service!));
  const expected = createHmac("sha256", key).update(stringToSign).digest("hex");
  if (expected !== signature) {
    return "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";
  }
  return undefined;
}
