import { describe, expect, it } from "vitest";
import { maskDatabaseUrl } from "../../../src/services/chatbots/views";
describe("databaseUrl in assistant records", () => {
  it.each([
    ["postgresql://bot:s3cret@db.example.com:5432/shop", "postgresql://bot:****@db.example.com:5432/shop"],
    ["mysql://app:p@ss@db.example.com/shop", "mysql://app:****@db.example.com/shop"],
    [
      "postgresql://db.example.com/shop?user=bot&password=s3cret",
      "postgresql://db.example.com/shop?user=bot&password=****",
    ],
    ["Server=db;Database=shop;User Id=bot;Password=s3cret;", "Server=db;Database=shop;User Id=bot;Password=****;"],
    ["scott/tiger@db.example.com:1521/ORCL", "scott/****@db.example.com:1521/ORCL"],
    ["postgresql://db.example.com/shop", "postgresql://db.example.com/shop"],
    [null, null],
  ])("masks the password of %s", (url, masked) => {
    expect(maskDatabaseUrl(url)).toBe(masked);
  });
});
