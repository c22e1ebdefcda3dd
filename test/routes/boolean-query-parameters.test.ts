// Boolean query parameters (src/lib/boolean-query.ts) in any letter case: Python's `requests` sends a Python bool as
// `True` or `False`.
import { describe, expect, it } from "vitest";
import { seedOwner } from "../harness";
import { expectInvalid } from "../support/refusals";
import { createChatbot } from "../fixtures/chatbots";

/** The body without what differs between two requests (their ids). */
const comparable = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  const type = res.headers.get("Content-Type") ?? "";
  if (!type.includes("json")) return type;
  return JSON.parse((await res.text()).replace(/"requestId":"[^"]*"/g, ""));
};

describe("boolean query parameters", () => {
  it("take True, FALSE and the like as true and false, on every route that has one; other words are 400", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const org = `/organizations/${owner.organizationId}`;
    const paths: [string, string][] = [
      ["/organizations/?", "pagination"],
      [`${org}/members/?`, "pagination"],
      ["/conversations/?", "isTest"],
      ["/tools/?", "isGlobal"],
      ["/connectors/?", "isEnabled"],
      [`/chatbots/${bot.id}/statistics/?`, "includeTests"],
      [`/chatbots/${bot.id}/llm-usage-statistics/?startDate=2026-01-01&timeGranularity=day&`, "includeTests"],
      [`${org}/usage-statistics/members/?`, "includeTime"],
      [`${org}/usage-statistics/chatbots/?`, "includeTime"],
      [`${org}/human-statistics/?`, "includeTests"],
      [`${org}/human-statistics/export-excel/?`, "includeTests"],
      ["/sql-databases/?", "isActive"],
      ["/sql-databases/?", "isExternal"],
    ];
    for (const [path, name] of paths) {
      for (const [sent, meant] of [
        ["True", "true"],
        ["TRUE", "true"],
        ["False", "false"],
        ["fAlSe", "false"],
      ]) {
        const expected = await comparable(await owner.fetch("GET", `${path}${name}=${meant}`));
        expect(await comparable(await owner.fetch("GET", `${path}${name}=${sent}`)), `${path}${name}=${sent}`).toEqual(
          expected,
        );
      }
      await expectInvalid(await owner.fetch("GET", `${path}${name}=yes`), name);
    }
    // The plain array of `pagination=false`, asked for the way Python writes False.
    expect(Array.isArray(await comparable(await owner.fetch("GET", "/organizations/?pagination=False")))).toBe(true);
  });
});
