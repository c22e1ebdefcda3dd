import { describe, expect, it } from "vitest";
import { flexSpecs, renderFlex } from "../../../src/services/tools/flex-tool";

describe("renderFlex", () => {
  it("sets the template's own members only: a path through __proto__ changes nothing", () => {
    const original = Object.prototype.toString;
    const template = { type: "bubble", body: { text: "{{title}}" } };
    const specs = flexSpecs({ "__proto__.toString": "anything", "body.text": { prompt: "Title", tag: "title" } });
    const values = Object.fromEntries(specs.map((s) => [s.key, "polluted"]));
    try {
      expect(renderFlex(template, specs, values)).toEqual({ type: "bubble", body: { text: "polluted" } });
      expect(Object.prototype.toString).toBe(original);
      expect(String({})).toBe("[object Object]");
    } finally {
      Object.prototype.toString = original;
    }
  });
});
