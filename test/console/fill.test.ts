import { describe, expect, it } from "vitest";
import { fill } from "../../console/src/i18n/fill";

const unread = "{name}: {n, plural, one {# unread conversation} other {# unread conversations}}, show them";

describe("the console's strings filled", () => {
  it("take the plural form the language uses for the number, with placeholders inside and beside it", () => {
    expect(fill(unread, { name: "Website", n: 1 }, "en")).toBe("Website: 1 unread conversation, show them");
    expect(fill(unread, { name: "Website", n: 2 }, "en")).toBe("Website: 2 unread conversations, show them");
    expect(fill(unread, { name: "Website", n: 0 }, "en")).toBe("Website: 0 unread conversations, show them");
    const matching = "{n, plural, one {# assistant matches} other {# assistants match}} “{query}”";
    expect(fill(matching, { n: 1, query: "bulk" }, "en")).toBe("1 assistant matches “bulk”");
    const inside = "{n, plural, one {{name} has # row} other {{name} has # rows}}";
    expect(fill(inside, { n: 3, name: "orders" }, "en")).toBe("orders has 3 rows");
  });

  it("leave a name they were not given as written, and a text without placeholders alone", () => {
    expect(fill(unread, { n: 1 }, "en")).toBe("{name}: 1 unread conversation, show them");
    expect(fill(unread, { name: "Website" }, "en")).toBe(
      "Website: {n, plural, one {# unread conversation} other {# unread conversations}}, show them",
    );
    expect(fill("No placeholders.", undefined, "en")).toBe("No placeholders.");
  });

  it("take one form in a language without plurals", () => {
    expect(fill("{n, plural, one {# 則} other {# 則}}未讀", { n: 1 }, "zh-TW")).toBe("1 則未讀");
  });
});
