/**
 * A local stand-in of Microsoft Entra ID's v2.0 endpoints, over HTTPS as Azure's libraries demand:
 * the OpenID configuration MSAL reads first (`/<tenant>/v2.0/.well-known/openid-configuration`) and
 * the token endpoint's client-credentials grant (`POST /<tenant>/oauth2/v2.0/token`), which checks the
 * client id and secret and the scope, and answers a wrong secret as Entra does (401 `invalid_client`,
 * AADSTS7000215). Its certificate is made here with openssl; a process trusts it only through
 * `NODE_EXTRA_CA_CERTS` (`caFile`), read at start, so what talks to it must be a child process.
 */
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type http from "node:http";

export interface FakeEntra {
  /** The authority host, for `AZURE_AUTHORITY_HOST`. */
  url: string;
  /** The certificate to trust (`NODE_EXTRA_CA_CERTS`). */
  caFile: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** The access tokens issued; a resource checks bearers against it. */
  tokens: Set<string>;
  /** Each request as `METHOD path`, and each token request's form. */
  requests: string[];
  tokenForms: URLSearchParams[];
  rejections: string[];
  close(): Promise<void>;
}

/** The audience Foundry's resources accept tokens for. */
export const COGNITIVE_SERVICES_SCOPE = "https://cognitiveservices.azure.com/.default";

function selfSignedCertificate(): { key: string; cert: string; caFile: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "crewbot-entra-tls-"));
  const keyFile = path.join(dir, "key.pem");
  const caFile = path.join(dir, "cert.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", caFile, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
  return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(caFile, "utf8"), caFile };
}

/** Entra's error body: `error`, an AADSTS description, its codes and ids. */
function sendEntraError(res: http.ServerResponse, status: number, error: string, code: number, description: string): void {
  const trace = randomUUID();
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "x-ms-request-id": trace });
  res.end(
    JSON.stringify({
      error,
      error_description: `AADSTS${code}: ${description} Trace ID: ${trace} Correlation ID: ${randomUUID()} Timestamp: ${new Date().toISOString()}`,
      error_codes: [code],
      timestamp: new Date().toISOString(),
      trace_id: trace,
      correlation_id: randomUUID(),
      error_uri: `https://login.microsoftonline.com/error?code=${code}`,
    }),
  );
}

export async function startFakeEntra(options: { expectRejections?: boolean } = {}): Promise<FakeEntra> {
  const { key, cert, caFile } = selfSignedCertificate();
  const tenantId = randomUUID();
  const clientId = randomUUID();
  const clientSecret = `crewbot-test~${randomBytes(18).toString("base64url")}`;
  const tokens = new Set<string>();
  const requests: string[] = [];
  const tokenForms: URLSearchParams[] = [];
  const rejections: string[] = [];
  let url = "";

  const openIdConfiguration = () => ({
    token_endpoint: `${url}/${tenantId}/oauth2/v2.0/token`,
    token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt", "client_secret_basic"],
    jwks_uri: `${url}/${tenantId}/discovery/v2.0/keys`,
    response_modes_supported: ["query", "fragment", "form_post"],
    subject_types_supported: ["pairwise"],
    id_token_signing_alg_values_supported: ["RS256"],
    response_types_supported: ["code", "id_token", "code id_token", "id_token token"],
    scopes_supported: ["openid", "profile", "email", "offline_access"],
    issuer: `${url}/${tenantId}/v2.0`,
    request_uri_parameter_supported: false,
    authorization_endpoint: `${url}/${tenantId}/oauth2/v2.0/authorize`,
    device_authorization_endpoint: `${url}/${tenantId}/oauth2/v2.0/devicecode`,
    http_logout_supported: true,
    frontchannel_logout_supported: true,
    end_session_endpoint: `${url}/${tenantId}/oauth2/v2.0/logout`,
    claims_supported: ["sub", "iss", "aud", "exp", "iat", "nonce", "tid", "ver", "oid"],
    tenant_region_scope: "EU",
  });

  const token = (form: URLSearchParams, res: http.ServerResponse) => {
    tokenForms.push(form);
    if (form.get("grant_type") !== "client_credentials") return sendEntraError(res, 400, "unsupported_grant_type", 70003, "The app requested an unsupported grant type.");
    if (form.get("client_id") !== clientId) return sendEntraError(res, 400, "unauthorized_client", 700016, `Application with identifier '${form.get("client_id")}' was not found in the directory.`);
    if (form.get("client_secret") !== clientSecret) {
      rejections.push("token: invalid client secret");
      return sendEntraError(res, 401, "invalid_client", 7000215, `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`);
    }
    const scopes = form.get("scope")?.split(" ") ?? [];
    if (!scopes.includes(COGNITIVE_SERVICES_SCOPE)) return sendEntraError(res, 400, "invalid_scope", 1002012, `The provided value for scope ${form.get("scope")} is not valid.`);
    const issued = `eyJ0eXAiOiJKV1QifQ.fake-entra-${randomBytes(16).toString("hex")}`;
    tokens.add(issued);
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ token_type: "Bearer", expires_in: 3599, ext_expires_in: 3599, access_token: issued }));
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse, raw: string) => {
    // MSAL adds `?client-request-id=…` to the token request; Entra routes by path.
    const route = `${req.method} ${new URL(req.url ?? "/", url).pathname}`;
    requests.push(route);
    if (route === `GET /${tenantId}/v2.0/.well-known/openid-configuration`) {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      return res.end(JSON.stringify(openIdConfiguration()));
    }
    if (route === `POST /${tenantId}/oauth2/v2.0/token`) return token(new URLSearchParams(raw), res);
    rejections.push(`no route ${route}`);
    if (!req.url?.startsWith(`/${tenantId}/`)) return sendEntraError(res, 400, "invalid_tenant", 90002, `Tenant '${req.url?.split("/")[1]}' not found.`);
    res.writeHead(404, { "content-type": "text/html" });
    res.end("Not Found");
  };

  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    caFile,
    tenantId,
    clientId,
    clientSecret,
    tokens,
    requests,
    tokenForms,
    rejections,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (rejections.length > 0 && !options.expectRejections) throw new Error(`fake Entra refused requests:\n${rejections.join("\n")}`);
    },
  };
}
