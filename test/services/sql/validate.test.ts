import { describe, expect, it } from "vitest";
import { checkReadOnlySql, SqlRefused } from "../../../src/services/sql/validate";

const TABLES = ["sales", "customers"];
const refuse = (sql: string, dialect: "postgresql" | "sqlite", message: RegExp) => {
  expect(() => checkReadOnlySql(sql, dialect, TABLES), sql).toThrow(SqlRefused);
  expect(() => checkReadOnlySql(sql, dialect, TABLES), sql).toThrow(message);
};

describe("checkReadOnlySql", () => {
  for (const dialect of ["postgresql", "sqlite"] as const) {
    it(`accepts single reads over the allowed tables (${dialect})`, () => {
      expect(
        checkReadOnlySql(
          "select region, sum(amount) as total from sales group by region order by total desc;",
          dialect,
          TABLES,
        ),
      ).toEqual({
        sql: "select region, sum(amount) as total from sales group by region order by total desc",
        tables: ["sales"],
      });
      const cte = checkReadOnlySql(
        "with big as (select * from sales where amount > 10) select c.name, count(*) from big join customers " +
          "c on c.id = big.customer_id group by c.name",
        dialect,
        TABLES,
      );
      expect(cte.tables.sort()).toEqual(["customers", "sales"]);
      expect(
        checkReadOnlySql(
          "select * from sales -- the comment ; drop table sales\n where region = 'a;b -- c'",
          dialect,
          TABLES,
        ).sql,
      ).toBe("select * from sales where region = 'a;b -- c'");
      expect(checkReadOnlySql(`select "Region" from "Sales"`, dialect, TABLES).tables).toEqual(["sales"]);
    });

    it(`refuses writes, chains, catalogs, unknown tables and dangerous functions (${dialect})`, () => {
      refuse("select 1; drop table sales", dialect, /one statement/i);
      refuse("select * from sales; delete from sales", dialect, /one statement|not allowed/i);
      refuse("delete from sales", dialect, /single SELECT/i);
      refuse("drop table sales", dialect, /single SELECT/i);
      refuse("with t as (delete from sales returning *) select * from t", dialect, /DELETE/);
      refuse("with t as (insert into sales values (1) returning *) select * from t", dialect, /INSERT/);
      refuse("with t as (update sales set amount = 0 returning *) select * from t", dialect, /UPDATE/);
      refuse("copy sales to '/tmp/x'", dialect, /single SELECT/i);
      refuse("select * from sales for update", dialect, /UPDATE|Locking/);
      refuse("select * into stolen from sales", dialect, /INTO/);
      refuse("select pg_sleep(10)", dialect, /catalog|pg_sleep/);
      refuse("select pg_catalog.pg_sleep(10)", dialect, /catalog/);
      refuse("select * from pg_catalog.pg_user", dialect, /catalog/);
      refuse("select * from information_schema.tables", dialect, /catalog/);
      refuse("select * from sqlite_master", dialect, /catalog/);
      refuse("select * from users", dialect, /not one this assistant may read/);
      refuse("select * from sales where id in (select user_id from api_keys)", dialect, /api_keys/);
      refuse("select * from other_schema.sales", dialect, /schema/i);
      refuse("select lo_import('/etc/passwd')", dialect, /lo_import/);
      refuse("select dblink('host=evil', 'select 1')", dialect, /dblink/);
      refuse("select set_config('a', 'b', false)", dialect, /set_config/);
      refuse("select randomblob(1000000000)", dialect, /randomblob/);
      refuse("select load_extension('x')", dialect, /load_extension/);
      refuse('select "pg_sleep"(1)', dialect, /catalog|not allowed/);
      refuse("with recursive r(n) as (select 1 union all select n + 1 from r) select * from r", dialect, /RECURSIVE/);
      refuse("select $$x$$", dialect, /Dollar/);
      refuse("select * from sales /* unterminated", dialect, /Unterminated/);
      refuse("select 'unterminated", dialect, /Unterminated/);
      refuse("", dialect, /empty/);
      refuse("select * from sales where", dialect, /parsed/);
    });
  }
});
