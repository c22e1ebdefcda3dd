import { describe, expect, it } from "vitest";
import { maskDatabaseUrl } from "../../src/services/chatbots/views";
import { maskConnectionString } from "../../src/services/sql/connection";

// Every form the SQL connectors take, with a secret in it, and how a record shows it.
const CASES: [string, string][] = [
  ["postgresql://bot:s3cret@db.example.com:5432/shop", "postgresql://bot:***@db.example.com:5432/shop"],
  ["mysql://app:p@ss@db.example.com/shop", "mysql://app:***@db.example.com/shop"],
  ["postgresql://bot:a@b@c%40d@db.example.com/shop", "postgresql://bot:***@db.example.com/shop"],
  [
    "postgresql://db.example.com/shop?user=bot&password=s3cret",
    "postgresql://db.example.com/shop?user=bot&password=***",
  ],
  [
    "postgresql://db.example.com/shop?sslpassword=s3cret&sslmode=require",
    "postgresql://db.example.com/shop?sslpassword=***&sslmode=require",
  ],
  ["Server=db;Database=shop;User Id=bot;Password=s3cret;", "Server=db;Database=shop;User Id=bot;Password=***;"],
  ["Server=db; User Id=bot; Password = s3cret; Encrypt=true", "Server=db; User Id=bot; Password = ***; Encrypt=true"],
  ["Server=db;PWD={se;cr}}et};Database=shop", "Server=db;PWD=***;Database=shop"],
  ['Server=db;Password="se;cret";Database=shop', "Server=db;Password=***;Database=shop"],
  [
    "jdbc:sqlserver://db:1433;databaseName=shop;user=sa;password=s3cret",
    "jdbc:sqlserver://db:1433;databaseName=shop;user=sa;password=***",
  ],
  ["mssql://sa:s3cret@db.example.com:1433/shop", "mssql://sa:***@db.example.com:1433/shop"],
  ["scott/tiger@db.example.com:1521/ORCL", "scott/***@db.example.com:1521/ORCL"],
  ["scott/ti@ger@db.example.com:1521/ORCL", "scott/***@db.example.com:1521/ORCL"],
  ["jdbc:oracle:thin:scott/tiger@db.example.com:1521:ORCL", "jdbc:oracle:thin:scott/***@db.example.com:1521:ORCL"],
  ["oracle://scott:tiger@db.example.com:1521/ORCL", "oracle://scott:***@db.example.com:1521/ORCL"],
  ["postgresql://db.example.com/shop", "postgresql://db.example.com/shop"],
  ["Server=db;Database=shop;Integrated Security=true", "Server=db;Database=shop;Integrated Security=true"],
];

describe("connection strings in records", () => {
  it.each(CASES)("%s reads %s; masking it again changes nothing", (url, masked) => {
    expect(maskConnectionString(url)).toBe(masked);
    expect(maskConnectionString(masked)).toBe(masked);
  });

  it("an assistant's databaseUrl is masked the same way, with ****", () => {
    for (const [url, masked] of CASES) {
      expect(maskDatabaseUrl({ databaseUrl: url, databaseUrlMasked: null })).toBe(masked.replaceAll("***", "****"));
      const stored = masked.replaceAll("***", "****");
      expect(maskDatabaseUrl({ databaseUrl: null, databaseUrlMasked: stored })).toBe(stored);
    }
    expect(maskDatabaseUrl({ databaseUrl: null, databaseUrlMasked: null })).toBe(null);
  });
});
