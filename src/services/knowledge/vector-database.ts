import { eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { type knowledgeBases, organizations } from "../../db/schema";

export { VECTOR_DATABASE_TYPES } from "../../db/schema";
import { cannotOpen, decryptSecret, encryptSecret } from "../../lib/crypto";
import { fieldError, forbidden } from "../../lib/errors";

type Row = Pick<
  typeof knowledgeBases.$inferSelect,
  "vectorDatabaseType" | "vectorDatabaseUrl" | "vectorDatabaseCredentialsSealed"
>;
type StoreType = NonNullable<Row["vectorDatabaseType"]>;
export type Credentials = Partial<Record<CredentialName, string>>;
/** Write-only credentials of an external vector store, stored sealed (never returned). */
export const CREDENTIAL_FIELDS = [
  "vectorDatabaseApiKey",
  "opensearchUsername",
  "opensearchPassword",
  "oracleUser",
  "oraclePassword",
  "synxdbUser",
  "synxdbPassword",
] as const;
export type CredentialName = (typeof CREDENTIAL_FIELDS)[number];

/** What each external store needs besides its URL (Elasticsearch: an API key or none). */
const REQUIRED: Record<StoreType, CredentialName[]> = {
  elasticsearch: [],
  opensearch: ["opensearchUsername", "opensearchPassword"],
  oracle: ["oracleUser", "oraclePassword"],
  synxdb: ["synxdbUser", "synxdbPassword"],
};
const ALLOWED: Record<StoreType, CredentialName[]> = { ...REQUIRED, elasticsearch: ["vectorDatabaseApiKey"] };

export async function readCredentials(row: Row, env: Pick<Bindings, "ENCRYPTION_KEY">): Promise<Credentials> {
  if (!row.vectorDatabaseCredentialsSealed) return {};
  return JSON.parse(await decryptSecret(row.vectorDatabaseCredentialsSealed, env.ENCRYPTION_KEY)) as Credentials;
}

/**
 * The store settings as they will be stored, checked (400 naming the field): a URL (http(s) for
 * Elasticsearch, OpenSearch and SynxDB; an Oracle DSN otherwise) and the credentials each type needs.
 * Credentials given as a string replace, null clears, absent keeps. Without a type, neither URL nor
 * credentials may be set (a stored URL is dropped when the type becomes null). Returns the columns to write.
 */
export async function resolveVectorDatabase(
  env: Pick<Bindings, "ENCRYPTION_KEY">,
  current: Row | null,
  body: { vectorDatabaseType?: StoreType | null; vectorDatabaseUrl?: string | null } & {
    [K in CredentialName]?: string | null;
  },
): Promise<Row & { storedCredentials: CredentialName[] }> {
  const type = body.vectorDatabaseType !== undefined ? body.vectorDatabaseType : (current?.vectorDatabaseType ?? null);
  // Going back to the platform's store (type null) drops the stored URL, as it drops the credentials.
  const url =
    body.vectorDatabaseUrl !== undefined
      ? body.vectorDatabaseUrl || null
      : type
        ? (current?.vectorDatabaseUrl ?? null)
        : null;
  const credentials: Credentials =
    current && current.vectorDatabaseType === type ? await readCredentials(current, env) : {};
  for (const name of Object.keys(ALLOWED).flatMap((t) => ALLOWED[t as StoreType])) {
    const value = body[name];
    if (value === null || value === "") delete credentials[name];
    else if (value !== undefined) credentials[name] = value;
  }
  const names = Object.keys(credentials) as CredentialName[];
  if (!type) {
    if (url) throw fieldError("vectorDatabaseUrl", "Only with a vectorDatabaseType.");
    if (names.length) throw fieldError(names[0], "Only with a vectorDatabaseType that uses it.");
    return {
      vectorDatabaseType: null,
      vectorDatabaseUrl: null,
      vectorDatabaseCredentialsSealed: null,
      storedCredentials: [],
    };
  }
  if (!url) throw fieldError("vectorDatabaseUrl", `Required with vectorDatabaseType ${type}.`);
  if (type !== "oracle" && !/^https?:\/\/[^\s/]+/i.test(url))
    throw fieldError("vectorDatabaseUrl", "Must be an http(s) URL.");
  const stray = names.find((n) => !ALLOWED[type].includes(n));
  if (stray) throw fieldError(stray, `Not used by vectorDatabaseType ${type}.`);
  const missing = REQUIRED[type].find((n) => !credentials[n]);
  if (missing) throw fieldError(missing, `Required with vectorDatabaseType ${type}.`);
  const sealed = names.length ? await encryptSecret(JSON.stringify(credentials), env.ENCRYPTION_KEY) : null;
  return {
    vectorDatabaseType: type,
    vectorDatabaseUrl: url,
    vectorDatabaseCredentialsSealed: sealed,
    storedCredentials: names,
  };
}

/** The stores the organization flag `canUseCustomElasticsearch` gates: Elasticsearch, and OpenSearch, which speaks
 * its API. Oracle and SynxDB are named by no flag. */
const ELASTICSEARCH_STORES: StoreType[] = ["elasticsearch", "opensearch"];

/**
 * Refuses (403) setting up an Elasticsearch or OpenSearch store for an organization without `canUseCustomElasticsearch`
 * (a feature of the organization, which staff switch on: CONTRACT section 4). Only a new or changed store needs it: a
 * knowledge base set up while the flag was on keeps its store and can still be edited, or moved back to ours.
 */
export async function requireStoreFeature(
  db: Db,
  organizationId: string,
  current: Row | null,
  body: { [K in CredentialName]?: string | null },
  next: Row,
) {
  const type = next.vectorDatabaseType;
  if (!type || !ELASTICSEARCH_STORES.includes(type)) return;
  const changed =
    current?.vectorDatabaseType !== type ||
    current.vectorDatabaseUrl !== next.vectorDatabaseUrl ||
    CREDENTIAL_FIELDS.some((name) => body[name] !== undefined);
  if (!changed) return;
  const [org] = await db
    .select({ allowed: organizations.canUseCustomElasticsearch })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org?.allowed)
    throw forbidden(
      `A ${type} vector store is not enabled for this organization (canUseCustomElasticsearch); ask the ` +
        "platform's staff to switch it on.",
    );
}

/** Names of the credentials stored for a knowledge base, for its record. */
export async function storedCredentialNames(
  row: Row,
  env: Pick<Bindings, "ENCRYPTION_KEY">,
): Promise<CredentialName[]> {
  if (!row.vectorDatabaseCredentialsSealed) return [];
  const credentials = await readCredentials(row, env).catch((err) => {
    if (!cannotOpen(err)) throw err;
    return {};
  });
  return Object.keys(credentials) as CredentialName[];
}
