import { describe, expect, it } from "vitest";
import { fillVariables } from "../../console/src/pages/conversations/canned-slash";

describe("the console's canned response variables", () => {
  const values = { "contact.name": "Ann", "agent.name": "Bob", "contact.email": null };

  it("fill the variables with a value; one without a value or unknown stays as written", () => {
    expect(fillVariables("Hi {{contact.name}}, {{ agent.name }} here", values)).toBe("Hi Ann, Bob here");
    expect(fillVariables("{{contact.email}} {{order.id}}", values)).toBe("{{contact.email}} {{order.id}}");
  });

  it("a {{...}} naming no variable stays as written, even an Object.prototype member's name", () => {
    for (const name of ["constructor", "toString", "hasOwnProperty", "__proto__"]) {
      // An inherited member is no variable: "{{constructor}}" inserted "function Object() { [native code] }".
      expect(fillVariables(`Hi {{${name}}}`, values), name).toBe(`Hi {{${name}}}`);
    }
  });
});
