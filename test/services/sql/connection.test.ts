import { describe, expect, it } from "vitest";
import { ConnectionError, parsePostgresUrl } from "../../../src/services/sql/connection";

describe("parsePostgresUrl", () => {
  it("reads sslmode as one of its own modes: Object.prototype's members are unknown", () => {
    expect(parsePostgresUrl("postgresql://bot@db.example.com/shop?sslmode=verify-full").ssl).toBe("require");
    expect(parsePostgresUrl("postgresql://bot@db.example.com/shop").ssl).toBe(false);
    for (const mode of ["constructor", "__proto__", "toString"])
      expect(() => parsePostgresUrl(`postgresql://bot@db.example.com/shop?sslmode=${mode}`)).toThrow(ConnectionError);
  });
});
