import { eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { chatbotGroups, chatbots, groupMembers, groups, inboxes, members } from "../../../src/db/schema";
import { uuidv7 } from "../../../src/lib/ids";
import { expect, it } from "vitest";
import type { Permission } from "../../../src/services/permissions";
import { call, db, expectError, seedMember, seedOwner, unique, type Actor } from "../../harness";

export const LOCAL_LLM_ID = async () => {
  const row = await db().query.models.findFirst({
    where: (m, { and, eq, isNull }) => and(eq(m.kind, "llm"), isNull(m.organizationId)),
  });
  return row!.id;
};

export async function addGroup(organizationId: string, name = unique("group")) {
  const id = uuidv7();
  await db().insert(groups).values({ id, organizationId, name });
  return id;
}

export async function joinGroup(memberId: string, groupId: string) {
  await db().insert(groupMembers).values({ groupId, memberId });
}

export async function setMetadata(memberId: string, metadata: Record<string, unknown> | null) {
  await db().update(members).set({ metadata }).where(eq(members.id, memberId));
}

export async function memberIdOf(organizationId: string, userId: string) {
  const row = await db().query.members.findFirst({
    where: (m, { and, eq }) => and(eq(m.organizationId, organizationId), eq(m.userId, userId)),
  });
  return row!.id;
}

/** An assistant reachable by `groupIds`, with an inbox. */
export async function seedInbox(organizationId: string, createdById: string, groupIds: string[]) {
  const chatbotId = uuidv7();
  const inboxId = uuidv7();
  await db()
    .insert(chatbots)
    .values({
      id: chatbotId,
      organizationId,
      createdById,
      name: unique("bot"),
      largeLanguageModelId: await LOCAL_LLM_ID(),
    });
  if (groupIds.length)
    await db()
      .insert(chatbotGroups)
      .values(groupIds.map((groupId) => ({ chatbotId, groupId })));
  await db()
    .insert(inboxes)
    .values({ id: inboxId, organizationId, name: unique("inbox"), channelType: "api", chatbotId });
  return inboxId;
}

export const groupLinks = (memberId: string) =>
  db().select().from(groupMembers).where(eq(groupMembers.memberId, memberId));

export type Cell = string | number | boolean | null;

/** Unzips an .xlsx and reads its first sheet into rows of values (shared strings resolved). */
export function readXlsx(bytes: ArrayBuffer): Cell[][] {
  const files = unzipSync(new Uint8Array(bytes));
  if (!files["[Content_Types].xml"] || !files["xl/workbook.xml"]) throw new Error("not an xlsx package");
  const decode = (s: string) =>
    s
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, "&");
  const shared = files["xl/sharedStrings.xml"]
    ? [...strFromU8(files["xl/sharedStrings.xml"]).matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
        decode([...m[1].matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join("")),
      )
    : [];
  const sheet = strFromU8(files["xl/worksheets/sheet1.xml"]);
  const rows: Cell[][] = [];
  for (const row of sheet.matchAll(/<row[^>]*?r="(\d+)"[^>]*>([\s\S]*?)<\/row>/g)) {
    const cells: Cell[] = [];
    for (const cell of row[2].matchAll(/<c([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const ref = /r="([A-Z]+)\d+"/.exec(cell[1])![1];
      const col = [...ref].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
      const type = /t="(\w+)"/.exec(cell[1])?.[1];
      const raw = /<v>([\s\S]*?)<\/v>/.exec(cell[2] ?? "")?.[1];
      const inline = /<is>[\s\S]*?<t[^>]*>([\s\S]*?)<\/t>/.exec(cell[2] ?? "")?.[1];
      let value: Cell = null;
      if (type === "s") value = shared[Number(raw)];
      else if (type === "b") value = raw === "1";
      else if (type === "inlineStr") value = decode(inline ?? "");
      else if (type === "str") value = decode(raw ?? "");
      else if (raw !== undefined) value = Number(raw);
      cells[col] = value;
    }
    rows[Number(row[1]) - 1] = cells;
  }
  // Trailing empty cells are not written; pad every row to the widest one.
  const width = Math.max(0, ...rows.map((r) => r.length));
  return Array.from(rows, (r) => Array.from({ length: width }, (_, i) => r?.[i] ?? null));
}

/** Excel's serial number of an instant (1900 date system, UTC), as date cells store it. */
export const excelSerial = (ms: number) => ms / 86_400_000 + 25569;

/** A GET of `path` refused (403) to a member of `owner`'s organization holding only `lacking`, answered once they hold
 * `needed`. */
export async function expectNeedsPermission(owner: Actor, path: string, lacking: Permission[], needed: Permission) {
  await expectError(await (await seedMember(owner, lacking)).fetch("GET", path), 403, "permission_denied");
  expect((await (await seedMember(owner, [needed])).fetch("GET", path)).status).toBe(200);
}

/**
 * The guards of a member route read with GET at `path(organizationId)` below /api/v1: 401 without a key, 403
 * for a member holding only `lacking` while one with `needed` may read, 404 for another organization.
 */
export function itGuardsRead(path: (organizationId: string) => string, needed: Permission, lacking: Permission[] = []) {
  it("401 without a key", async () => {
    const owner = await seedOwner();
    await expectError(await call("GET", `/api/v1${path(owner.organizationId)}`), 401, "not_authenticated");
  });

  it(`403 without ${needed}${lacking.length ? ` (${lacking.join(", ")} is not enough)` : ""}`, async () => {
    const owner = await seedOwner();
    await expectNeedsPermission(owner, path(owner.organizationId), lacking, needed);
  });

  it("404 for another organization", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("GET", path(owner.organizationId)), 404, "not_found");
  });
}
