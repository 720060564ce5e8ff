/**
 * The clouds' own credential chains, one of each per process: a client is made per job, and each
 * would otherwise find its credentials again (a token exchange, an instance-metadata request) where
 * the shared chain reuses them until they expire. AWS's and Azure's libraries are loaded at first
 * use only (Google's comes with the Vertex SDK anyway). `probe` asks once at start whether the
 * chain yields credentials at all (model-list.ts): without it a missing role or key file would show
 * only as jobs failing after `CREWBOT_MODEL_RETRY_MINUTES` of retries.
 */
import { GoogleAuth } from "google-auth-library";

type AwsProvider = () => Promise<unknown>;

let aws: Promise<AwsProvider> | undefined;

/**
 * AWS's chain as the Bedrock SDK builds it (the environment's keys first, then the node chain:
 * `AWS_PROFILE` and `~/.aws`, SSO, web identity, the container's or instance's role), built once.
 */
export function awsChain(): Promise<AwsProvider> {
  aws ??= import("@aws-sdk/credential-providers").then(({ createCredentialChain, fromEnv, fromNodeProviderChain }) => createCredentialChain(fromEnv(), fromNodeProviderChain()));
  return aws;
}

const googleAuths = new Map<string, GoogleAuth>();

/**
 * Google's application-default credentials: the file `keyFile` names (a service account key, or
 * workload identity federation's `external_account`), else gcloud's login or the metadata server.
 * One per file, so its token is reused.
 */
export function googleAuth(keyFile: string | undefined): GoogleAuth {
  const key = keyFile ?? "";
  let auth = googleAuths.get(key);
  if (!auth) {
    auth = new GoogleAuth({ scopes: "https://www.googleapis.com/auth/cloud-platform", ...(keyFile ? { keyFilename: keyFile } : {}) });
    googleAuths.set(key, auth);
  }
  return auth;
}

/** Foundry's resource endpoints take tokens for the Cognitive Services audience. */
const FOUNDRY_SCOPE = "https://cognitiveservices.azure.com/.default";

let entra: Promise<() => Promise<string>> | undefined;

/**
 * An Entra ID token from Azure's default chain (environment, workload identity, managed identity,
 * Azure CLI), refreshed by it. An authority host the operator names (`AZURE_AUTHORITY_HOST`) is used
 * as named, without instance discovery: that asks login.microsoftonline.com whether the host is an
 * Entra instance, which a private authority (Azure Stack, an isolated cloud) cannot pass or reach;
 * the public and sovereign clouds' hosts are in MSAL's own table and never asked about anyway.
 */
export async function entraToken(): Promise<string> {
  entra ??= import("@azure/identity").then(({ DefaultAzureCredential, getBearerTokenProvider }) =>
    getBearerTokenProvider(new DefaultAzureCredential({ disableInstanceDiscovery: Boolean(process.env.AZURE_AUTHORITY_HOST) }), FOUNDRY_SCOPE),
  );
  return (await entra)();
}

/** Why the chain yields no credentials, or undefined when it does. */
export async function probe(get: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await get();
    return undefined;
  } catch (err) {
    return (err instanceof Error ? err.message : String(err)).split("\n")[0] || "unknown error";
  }
}
