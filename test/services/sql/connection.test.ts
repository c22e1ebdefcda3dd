import { describe, expect, it } from "vitest";
import { ConnectionError, parsePostgresUrl } from "../../../src/services/sql/connection";

describe("parsePostgresUrl", () => {
  it("reads sslmode as one of its own modes: Object.prototype's members are unknown", () => {
    expect(parsePostgresUrl("postgresql://bot@db.example.com/shop?sslmode=verify-full").ssl).toBe("require");
    expect(parsePostgresUrl("postgresql://bot@db.example.com/shop").ssl).toBe(false);
    for (const mode of ["constructor", "__proto__", "toString"])
      expect(() => parsePostgresUrl(`postgresql://bot@db.example.com/shop?sslmode=${mode}`)).toThrow(ConnectionError);
  });

  it("refuses a % that is not percent-encoding with a ConnectionError, and decodes one that is", () => {
    for (const url of [
      "postgresql://bot:100%@db.example.com/shop",
      "postgresql://bot:s3cret@db.example.com/sh%op",
      "postgresql://b%t:s3cret@db.example.com/shop",
    ])
      expect(() => parsePostgresUrl(url), url).toThrow(/percent-encode special characters/);
    expect(parsePostgresUrl("postgresql://bot:100%25%40@db.example.com/sh%20op")).toMatchObject({
      password: "100%@",
      database: "sh op",
    });
  });
});
