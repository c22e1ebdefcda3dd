// Validation messages in the caller's language (docs/decisions.md, "Validation messages"): zod's own messages follow
// `Accept-Language` (English or zh-TW); a schema's own message, the `detail`'s lead and the `code` stay as they are.
import { describe, expect, it } from "vitest";
import { MAX_CONVERSATION_LABELS } from "../../../src/services/labels";
import { NO_SUCH_ID, PREFIXES, expectError, seedOwner } from "../../harness";
import { bodyOf } from "../../support/api";

describe("validation messages", () => {
  it.each(PREFIXES)("follow Accept-Language: zod's own in zh-TW, a schema's own as written (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bad = { name: "   ", color: "red" };
    const zh = await expectError(
      await owner.fetch("POST", "/labels/", bad, { prefix, headers: { "Accept-Language": "zh-TW,en;q=0.5" } }),
      400,
      "invalid",
    );
    expect(zh.errors).toEqual({ name: ["不可空白"], color: ["A colour as #rrggbb"] });
    expect(zh.detail).toBe("Invalid request. name: 不可空白; color: A colour as #rrggbb");
    const en = await expectError(await owner.fetch("POST", "/labels/", bad, { prefix }), 400, "invalid");
    expect(en.errors?.name).toEqual(["Can't be empty"]);
  });

  it("a size is said in words, not zod's type names and symbols, in English and in zh-TW", async () => {
    const owner = await seedOwner();
    const zh = { headers: { "Accept-Language": "zh-TW" } };
    const refused = async (body: object) =>
      (await expectError(await owner.fetch("POST", "/labels/", body, zh), 400, "invalid")).errors;
    const inEnglish = async (method: string, path: string, body: object) =>
      (await expectError(await owner.fetch(method, path, body), 400, "invalid")).errors;
    expect(await inEnglish("POST", "/labels/", { name: "x".repeat(51), color: "#112233" })).toEqual({
      name: ["At most 50 characters"],
    });
    expect(await refused({ name: "x".repeat(51), color: "#112233" })).toEqual({ name: ["最多 50 個字元"] });
    // A field left out and a query number that is not one, as in English ("Required", "Expected a number").
    expect(await refused({ color: "#112233" })).toEqual({ name: ["必填"] });
    const notANumber = await owner.fetch("GET", "/labels/?pageSize=ten", undefined, zh);
    expect((await expectError(notANumber, 400, "invalid")).errors).toEqual({ pageSize: ["須為數字"] });
    expect(await refused({ name: "VIP", color: "#112233", description: "x".repeat(501) })).toEqual({
      description: ["最多 500 個字元"],
    });
    // A list: the body is refused before the conversation is looked for.
    const labelIds = Array.from({ length: MAX_CONVERSATION_LABELS + 1 }, () => NO_SUCH_ID);
    const tooMany = await owner.fetch("PUT", `/conversations/${NO_SUCH_ID}/labels/`, { labelIds }, zh);
    expect((await expectError(tooMany, 400, "invalid")).errors).toEqual({
      labelIds: [`最多 ${MAX_CONVERSATION_LABELS} 項`],
    });
    expect(await inEnglish("PUT", `/conversations/${NO_SUCH_ID}/labels/`, { labelIds })).toEqual({
      labelIds: [`At most ${MAX_CONVERSATION_LABELS} items`],
    });
    // Nothing written.
    expect(((await (await owner.fetch("GET", "/labels/")).json()) as { count: number }).count).toBe(0);
  });

  it("a field of fixed choices left out is Required, as any other; a wrong one names the choices", async () => {
    const owner = await seedOwner();
    const path = `/organizations/${owner.organizationId}/members/current/availability/`;
    const refused = async (body: object, headers = {}) =>
      (await expectError(await owner.fetch("PUT", path, body, { headers }), 400, "invalid")).errors;
    expect(await refused({})).toEqual({ availability: ["Required"] });
    expect(await refused({}, { "Accept-Language": "zh-TW" })).toEqual({ availability: ["必填"] });
    expect((await refused({ availability: "asleep" }))?.availability?.[0]).toMatch(/^Invalid option: .*"online"/);
  });

  it("a query's messages too; English where English ranks first or zh-TW is refused", async () => {
    const owner = await seedOwner();
    const pageZero = (language: string) =>
      owner.fetch("GET", "/labels/?page=0", undefined, { headers: { "Accept-Language": language } });
    const page = async (language: string) => (await expectError(await pageZero(language), 400, "invalid")).errors;
    expect(await page("fr-CA, zh-Hant-TW;q=0.8")).toEqual({ page: ["不可小於 1"] });
    for (const english of ["en-US,zh-TW;q=0.9", "zh-TW;q=0, fr", "*", "zh-CN"])
      expect(await page(english), english).toEqual({ page: ["Can't be less than 1"] });
  });

  it("a field that is an object or null names what inside the object is wrong, not only the field", async () => {
    const owner = await seedOwner();
    const inbox = await bodyOf<"POST /inboxes/">(
      await owner.fetch("POST", "/inboxes/", { name: "Web", channelType: "web" }),
    );
    const hours = async (businessHours: unknown, headers = {}) =>
      (
        await expectError(
          await owner.fetch("PATCH", `/inboxes/${inbox.id}/`, { businessHours }, { headers }),
          400,
          "invalid",
        )
      ).errors;
    // Statistics take `timezone`: a slip an operator makes, read "businessHours: Invalid input" before.
    expect(await hours({ timezone: "Europe/Berlin", weekly: { mon: [["09:00", "17:00"]] } })).toEqual({
      "businessHours.timeZone": ["Required"],
      businessHours: [expect.stringMatching(/timezone/)],
    });
    expect(await hours({ timeZone: "", weekly: {} }, { "Accept-Language": "zh-TW" })).toEqual({
      "businessHours.timeZone": ["不可空白"],
    });
    // A value of neither kind is still said at the field.
    expect(await hours("always")).toEqual({ businessHours: ["Invalid input"] });
    const unchanged = await bodyOf<"GET /inboxes/{id}/">(await owner.fetch("GET", `/inboxes/${inbox.id}/`));
    expect(unchanged.businessHours).toBeNull();
  });

  it("a number out of range is said with its tightest bound only", async () => {
    const owner = await seedOwner();
    const chunks = async (n: number) =>
      (await expectError(await owner.fetch("POST", "/knowledge-bases/", { numberOfRetrievedChunks: n }), 400)).errors
        ?.numberOfRetrievedChunks;
    // Also "Can't be more than 9007199254740991" before, first: the bound of every integer.
    expect(await chunks(1e308)).toEqual(["Can't be more than 100"]);
    expect(await chunks(-1e308)).toEqual(["Can't be less than 1"]);
  });
});
