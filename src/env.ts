import type { DrizzleD1Database } from "drizzle-orm/d1";
import type * as schema from "./db/schema";
import type { Conversation } from "../durable-objects/conversation-entry";
import type { RateLimiter } from "../durable-objects/rate-limiter";
import type { VectorIndex } from "../durable-objects/vector-index";
import type { ManagedDatabase } from "../durable-objects/managed-database";
import type { InboxEvents } from "../durable-objects/inbox-events";

/** Bindings declared in wrangler.toml. Optional ones are remote-only and absent locally. */
export interface Bindings {
  DB: D1Database;
  /** Organization shards (services/shards): each organization's conversation search terms. */
  CONVERSATIONS_1: D1Database;
  CONVERSATIONS_2: D1Database;
  FILES: R2Bucket;
  CONVERSATION: DurableObjectNamespace<Conversation>;
  WEBHOOK_QUEUE: Queue;
  INGESTION_QUEUE: Queue;
  /** Messaging channels' work: events taken in, replies sent (src/queues/channels.ts). */
  CHANNEL_QUEUE: Queue;
  /** Scoring of answered questions (src/queues/chatbot-evaluation.ts). */
  EVALUATION_QUEUE: Queue;
  /** Id of the model that judges evaluations; unset (or a local model): deterministic approximations. */
  EVALUATION_MODEL?: string;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** The local vector store, one object per knowledge base; unused when VECTORIZE is bound. */
  VECTOR_INDEX: DurableObjectNamespace<VectorIndex>;
  /** Managed SQL databases (text-to-SQL), one SQLite object per database. */
  MANAGED_DATABASE: DurableObjectNamespace<ManagedDatabase>;
  /** The live inbox's hub, one object per organization (durable-objects/inbox-events.ts). */
  INBOX_EVENTS: DurableObjectNamespace<InboxEvents>;
  VECTORIZE?: VectorizeIndex;
  AI?: Ai;
  REGISTRATION_ENABLED?: string;
  /** Tests only: a statement naming the other plane's tables fails ("data", "both") or is logged ("report");
   * src/db/index.ts. */
  PLANE_GUARD?: "data" | "both" | "report";
  BOOTSTRAP_API_KEY?: string;
  BOOTSTRAP_EMAIL?: string;
  /** The first administrator's password for the console's sign-in (`npm run dev` generates one); unset: they sign in
   * with the key. */
  BOOTSTRAP_PASSWORD?: string;
  JSON_BODY_LIMIT_BYTES?: string;
  RATE_LIMIT_PER_MINUTE?: string;
  /** Failed sign-ins (console sessions, login) allowed per 15 minutes per e-mail from one client address (default
   * 10), per client address (default 50) and per e-mail from every address (default 100),
   * src/services/sign-in-limits.ts. */
  SIGN_IN_FAILURES_PER_EMAIL?: string;
  SIGN_IN_FAILURES_PER_CLIENT?: string;
  SIGN_IN_FAILURES_PER_ACCOUNT?: string;
  /** Comma-separated `host` or `host:port` that outbound calls may reach although private (CONTRACT section 11). */
  OUTBOUND_ALLOWED_HOSTS?: string;
  /** Alias of OUTBOUND_ALLOWED_HOSTS. */
  WEBHOOK_ALLOWED_HOSTS?: string;
  /**
   * Hyperdrive bindings (`[[hyperdrive]]`) that SQL databases may name as `hyperdrive://NAME`, comma-separated:
   * `NAME` for every organization, `NAME=orgId|orgId` for those only. Unset: none (src/services/sql/connection.ts).
   */
  SQL_HYPERDRIVE_BINDINGS?: string;
  /** Receiver time-out in ms (default 30,000, spec delivery rule 2); tests shorten it. */
  WEBHOOK_TIMEOUT_MS?: string;
  /** Messaging platforms' API origins (CONTRACT section 17); unset: the platform's own. Stand-ins in tests and local
   * development. */
  LINE_API_ORIGIN?: string;
  LINE_DATA_API_ORIGIN?: string;
  TELEGRAM_API_ORIGIN?: string;
  GRAPH_API_ORIGIN?: string;
  SLACK_API_ORIGIN?: string;
  /** Outgoing e-mail of e-mail inboxes (wrangler.toml `send_email`). */
  EMAIL?: SendEmail;
  /** Chaos runs only: the webhook retry schedule and disable window run this many times faster
   * (src/services/webhooks/retries.ts). */
  WEBHOOK_RETRY_TIME_SCALE?: string;
  /** How long one answer of an OpenAI-compatible model may take, streaming included, in ms (default 60,000). */
  MODEL_TIMEOUT_MS?: string;
  /** Retries of a model request that failed with 429 or a lost connection before its first token (default 2; 0: none).
   * */
  MODEL_RETRIES?: string;
  /** Longest wait before such a retry, in ms, whatever `Retry-After` asks (default 10,000). */
  MODEL_RETRY_MAX_DELAY_MS?: string;
  /** How often an open live inbox stream checks again that its reader may still read it, in ms (default 30,000). */
  INBOX_STREAM_RECHECK_MS?: string;
  /** How long after a member's last console tab closed they become offline, in ms (default 30,000: a reload reopens it
   * sooner). */
  PRESENCE_GRACE_MS?: string;
  /** How long a visitor's live stream (the widget's `events/`) stays open before it ends and the widget reopens it with
   * `Last-Event-ID`, in ms (default 600,000). */
  WIDGET_STREAM_MAX_MS?: string;
  /** Timeout of one api tool call in ms (default 30,000). */
  TOOL_TIMEOUT_MS?: string;
  /** Time limit of one function tool call in ms (default 5,000). */
  FUNCTION_TOOL_TIMEOUT_MS?: string;
  /** Worker Loader: each function tool call runs in a Dynamic Worker with a CPU limit of its own; without it, on the
   * worker's thread (services/tools/isolate.ts). */
  FUNCTION_LOADER?: WorkerLoader;
  /** Tool calls per agent reply (default 10). */
  AGENT_MAX_TOOL_CALLS?: string;
  /** Text-to-SQL (`query_database`): rows returned to the model (default 200) and time limit of a query in ms (default
   * 10,000). */
  SQL_QUERY_ROW_LIMIT?: string;
  SQL_QUERY_TIMEOUT_MS?: string;
  /** Secret used to encrypt credentials at rest (model API keys, store passwords). */
  ENCRYPTION_KEY?: string;
  /** The operator's plans as JSON (src/services/plans.ts); unset: no quotas. */
  PLANS?: string;
  /** Plan id of new organizations (default: the first of PLANS). */
  DEFAULT_PLAN?: string;
  /** Days after its plan lapsed that the cron deletes an organization with its data (src/services/plans.ts);
   * unset: never. */
  LAPSED_PLAN_CLEANUP_DAYS?: string;
  /** R2's S3 API (all three, or none): presigned PUT and download URLs then point at R2 itself
   * (src/services/uploads/settings.ts). */
  R2_ACCOUNT_ID?: string;
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
  /** The FILES bucket's name at R2 (default `assistant-platform-files`). */
  R2_BUCKET_NAME?: string;
  /** Signs our own upload and download URLs when R2 credentials are absent (default: derived from ENCRYPTION_KEY). */
  UPLOAD_SIGNING_KEY?: string;
  /** `POST` (default: S3 POST policy) or `PUT` (presigned PUT URL) for `upload-presigned-url/`. */
  PRESIGNED_UPLOAD_METHOD?: string;
  /** JSON overriding allowed-file-specs, e.g. `{"attachment": {"file": {"max_size": 1048576}}}`. */
  ALLOWED_FILE_SPECS?: string;
  /** Hours after which uploads never attached are deleted (default 24; 0 keeps them). */
  UNATTACHED_UPLOAD_TTL_HOURS?: string;
  /** Public web chat endpoints: requests a minute per client (default 120) and per web chat (default 6,000). */
  WIDGET_RATE_LIMIT_PER_MINUTE?: string;
  WIDGET_WEB_CHAT_RATE_LIMIT_PER_MINUTE?: string;
  /** DNS-over-HTTPS JSON endpoint for custom domain checks (default Cloudflare's). */
  DNS_RESOLVER_URL?: string;
  /** JSON `{"name": ["txt value", ...]}`: a fixed TXT resolver (local development, tests) instead of DNS over HTTPS. */
  DNS_STATIC_TXT?: string;
  /** Lifetime of signed attachment download URLs in seconds (default 3600; message attachments: 7 days). */
  ATTACHMENT_URL_TTL_SECONDS?: string;
  /** Fault injection for tests and `npm run chaos` only (src/services/knowledge/ingestion-fault.ts); never set in a
   * deployment. */
  INGESTION_FAULT?: string;
  /** `development` or `test` where the worker runs for a developer or a test run; unset in a deployment
   * (src/lib/clock.ts). */
  ENVIRONMENT?: string;
  /** Milliseconds added to the time business hours are read at (src/lib/clock.ts); honoured only in development and
   * test. */
  CLOCK_OFFSET_MS?: string;
  /** Keyword results whose vectors steer a hybrid search's vector leg (default 5; 0: off). */
  RETRIEVAL_FEEDBACK_PASSAGES?: string;
}

export type Db = DrizzleD1Database<typeof schema>;

export interface Principal {
  userId: string;
  email: string;
  name: string;
  isStaff: boolean;
  /** The user's row, read with the key in one query; handlers need not read it again. */
  user: typeof schema.users.$inferSelect;
  /** The API key of the request; null when it came with the console's session cookie. */
  apiKeyId: string | null;
  /** The console session of the request (cookie), read with its user; null for an API key. */
  session: typeof schema.consoleSessions.$inferSelect | null;
  /** Organization the key or session acts in by default (X-Organization-Id overrides). */
  defaultOrganizationId: string | null;
}

export interface Variables {
  requestId: string;
  /** The organization the request acts in, once a handler resolved it (for the request log). */
  organizationId?: string;
  /** The control plane (`DB`): configuration, members, keys. */
  db: Db;
  /** The organization's data plane (services/shards `dataDb`), set with its access (services/access.ts). */
  data: Db;
  principal: Principal;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
