import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";
import { belongsTo, bool, createdAt, id, json, timestamps } from "./columns";

export const organizations = sqliteTable(
  "organizations",
  {
    id: id(),
    name: text("name").notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id),
    compactLogo: text("compact_logo"),
    fullLogo: text("full_logo"),
    themePrimaryColor: text("theme_primary_color"),
    planId: text("plan_id").notNull().default("free"),
    planExpiredAt: integer("plan_expired_at"),
    canUseCustomElasticsearch: bool("can_use_custom_elasticsearch").notNull().default(false),
    canUseVoiceAgent: bool("can_use_voice_agent").notNull().default(false),
    canUseMeetingRecords: bool("can_use_meeting_records").notNull().default(false),
    canUseCallCenter: bool("can_use_call_center").notNull().default(false),
    canUseHookSystem: bool("can_use_hook_system").notNull().default(false),
    canUseAiGateway: bool("can_use_ai_gateway").notNull().default(false),
    canUseAgentTeams: bool("can_use_agent_teams").notNull().default(false),
    canUseMaigptWorkspaceMount: bool("can_use_maigpt_workspace_mount").notNull().default(false),
    gatewayServiceFeePercent: text("gateway_service_fee_percent").notNull().default("0.00"),
    gatewayTrafficFeePercent: text("gateway_traffic_fee_percent").notNull().default("0.00"),
    platformProcessingFeePercent: text("platform_processing_fee_percent").notNull().default("0.00"),
    platformProcessingFeeEnabled: bool("platform_processing_fee_enabled").notNull().default(false),
    trialEndsAt: integer("trial_ends_at"),
    approvalStatus: text("approval_status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    companyName: text("company_name"),
    taxId: text("tax_id"),
    contactPhone: text("contact_phone"),
    applicationMetadata: json<Record<string, unknown>>("application_metadata"),
    invitationCode: text("invitation_code"),
    gptInboxId: text("gpt_inbox_id"),
    creditWalletId: text("credit_wallet_id").notNull(),
    ...timestamps(),
  },
  // The housekeeping cron's sweep of lapsed plans (services/lapsed-plan-cleanup.ts) seeks the few that lapsed, not
  // every organization every 15 minutes.
  (t) => [index("organizations_plan_expired_idx").on(t.planExpiredAt).where(sql`${t.planExpiredAt} IS NOT NULL`)],
);

export const MEMBER_AVAILABILITIES = ["online", "busy", "offline"] as const;

export const members = sqliteTable(
  "members",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    userId: belongsTo("user_id", () => users.id),
    isOwner: bool("is_owner").notNull().default(false),
    /** Custom member information, filled from the metadata template. */
    metadata: json<Record<string, unknown>>("metadata"),
    /** Whether automatic assignment may give them conversations (services/assignment): online, busy or offline. */
    availability: text("availability", { enum: MEMBER_AVAILABILITIES }).notNull().default("offline"),
    /** Conversations with a person they may serve at once before automatic assignment passes them by; null: the inbox's
     * default. */
    capacity: integer("capacity"),
    /** When automatic assignment last gave them a conversation (round-robin: the longest waiting agent is next). */
    lastAssignedAt: integer("last_assigned_at"),
    /**
     * Until when (wall clock, ms) one assignment holds the agent's places, in an organization whose conversations are
     * in several parts: their count across the parts and the assignment are then one step (services/assignment).
     */
    assigningUntil: integer("assigning_until"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("members_org_user_uq").on(t.organizationId, t.userId), index("members_user_idx").on(t.userId)],
);

export const groups = sqliteTable(
  "groups",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    name: text("name").notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("groups_org_name_uq").on(t.organizationId, t.name)],
);

/** Permission ids come from the fixed catalogue in services/permissions.ts. */
export const groupPermissions = sqliteTable(
  "group_permissions",
  {
    groupId: belongsTo("group_id", () => groups.id),
    permissionId: text("permission_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.permissionId] })],
);

export const groupMembers = sqliteTable(
  "group_members",
  {
    id: id(),
    groupId: belongsTo("group_id", () => groups.id),
    memberId: belongsTo("member_id", () => members.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("group_members_uq").on(t.groupId, t.memberId), index("group_members_member_idx").on(t.memberId)],
);

/**
 * Monthly usage counters per organization, fed by replies (words) and new conversations. `uploaded_bytes` is no longer
 * written: what uploads store is read from their rows (services/uploads/allowance.ts); the column stays, as dropping
 * it means rewriting the data plane move's triggers that name it.
 */
export const organizationUsage = sqliteTable(
  "organization_usage",
  {
    organizationId: belongsTo("organization_id", () => organizations.id),
    month: text("month").notNull(),
    wordsCount: integer("words_count").notNull().default(0),
    conversationsCount: integer("conversations_count").notNull().default(0),
    uploadedBytes: integer("uploaded_bytes").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.month] })],
);

/**
 * Which organization shard (a `CONVERSATIONS_n` D1 binding, services/shards) holds an organization's
 * conversation search terms; written on the organization's first use of its shard, by a fixed rule
 * (services/shards/index.ts `organizationPlacements`). A move (services/shards/move.ts) sets `movingTo`
 * (new writes go to both shards while the old rows are copied, `cursor` says how far), then `shard` to it and
 * `movingFrom` to the old one until its rows are deleted. `since`: when the current step began.
 * `dataPlane`: where the organization's data plane is (src/db/planes.ts): `shard` for organizations created since
 * the shards hold it and those moved there, `db` for those still in `DB`, `moving` and `fenced` while one moves
 * (services/shards/data-plane-move.ts, whose step `cursor` then holds; docs/decisions.md, "Moving an organization's
 * data plane").
 */
export const organizationShards = sqliteTable("organization_shards", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  shard: text("shard").notNull(),
  movingTo: text("moving_to"),
  movingFrom: text("moving_from"),
  cursor: text("cursor"),
  since: integer("since").notNull(),
  dataPlane: text("data_plane", { enum: ["db", "moving", "fenced", "shard"] })
    .notNull()
    .default("db"),
});

/**
 * The further parts of an organization's data plane, past its shard (docs/scale.md §5, "One organization over several
 * shards"): a conversation whose id's time is at or after `from` (the latest such part) has its rows in `shard`;
 * before every `from`, in the organization's shard (`organization_shards.shard`). No row: one part, as for every
 * organization until one outgrows a shard. Rows are only added, never moved.
 */
export const organizationParts = sqliteTable(
  "organization_parts",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    from: integer("from_ms").notNull(),
    shard: text("shard").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.from] })],
);
