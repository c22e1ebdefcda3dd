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
      expect(
        checkReadOnlySql(`select "Region" from "${dialect === "sqlite" ? "Sales" : "sales"}"`, dialect, TABLES).tables,
      ).toEqual(["sales"]);
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

    it(`reads a name as a CTE only where WITH defines it, in its scope (${dialect})`, () => {
      const tables = (sql: string) => checkReadOnlySql(sql, dialect, TABLES).tables.sort();
      // A CTE named like a real table, CTEs after a comma (with a column list), a WITH nested in a subquery.
      expect(tables("with secrets as (select * from sales) select * from secrets")).toEqual(["sales"]);
      expect(
        tables("with a as (select * from sales), b (n) as (select count(*) from a) select n from b, customers"),
      ).toEqual(["customers", "sales"]);
      expect(tables("select * from (with t as (select * from customers) select * from t) as x")).toEqual(["customers"]);
      expect(tables("select * from sales where exists (with t as (select 1) select * from t)")).toEqual(["sales"]);
      // Comma-joined tables and subqueries, with and without AS.
      expect(tables("select s.region from sales s, customers as c where c.id = s.customer_id")).toEqual([
        "customers",
        "sales",
      ]);
      expect(tables("select * from sales, (select id from customers) as c, (select 1) x")).toEqual([
        "customers",
        "sales",
      ]);
      expect(tables("select * from customers d, sales s join customers c on c.id = s.customer_id")).toEqual([
        "customers",
        "sales",
      ]);

      // Each reads the table secrets, which is not one of TABLES, however it names or hides it.
      for (const sql of [
        "select s.* from sales, secrets as s",
        "select s.value from sales, secrets as s limit 1",
        "select * from sales, secrets s",
        "select * from sales, secrets",
        "select * from sales as a, customers b, secrets as c",
        "select * from sales, (select value from secrets) as t",
        "select * from sales, lateral (select value from secrets) as t",
        "select * from sales cross join lateral (select value from secrets) t",
        "select * from sales join secrets as s on true",
        "select * from (sales join secrets on true)",
        "with t as (select 1) select * from t, secrets as x",
        // A CTE hides a table only after its own definition, inside the query its WITH belongs to.
        "with secrets as (select * from secrets) select * from secrets",
        "with a as (select * from secrets), secrets as (select 1) select * from a",
        "select * from (with secrets as (select * from sales) select * from secrets) as t, secrets",
        "select * from sales where exists (with secrets as (select 1) select 1) and exists (table secrets)",
        "with t as (select 1) select * from sales union select value from secrets",
        "select * from sales where amount is distinct from 1 and id in (select id from secrets)",
        "select * from sales s, secrets as t, lateral (select 1) as x",
        "with t as materialized (select * from secrets) select * from t",
      ])
        refuse(sql, dialect, /secrets is not one this assistant may read/);

      // A call is checked whatever alias follows, and wherever it stands.
      refuse(
        "select 1, query_to_xml('select value from secrets', true, false, '') as x from sales limit 1",
        dialect,
        /query_to_xml/,
      );
      refuse("select region, set_config('statement_timeout', '0', false) as t from sales", dialect, /set_config/);
      refuse("with t as (select 1) select 1, query_to_xml('x', true, false, '') as x from t", dialect, /query_to_xml/);
      refuse("with t (n) as (select 1), u as (select pg_read_file('x')) select * from u", dialect, /pg_read_file/);
      refuse("select * from sales, query_to_xml('x', true, false, '') as x", dialect, /query_to_xml/);
      refuse("with t as (select 1) select sleepy(1) as (x) from t", dialect, /sleepy|parsed/);
      refuse("select * from sales, [secrets]", dialect, /FROM clause/);
      refuse("select 1 with x as (select 1) select 1", dialect, /WITH/);
    });
  }

  it("matches a CTE's name as each dialect does: PostgreSQL keeps a quoted name's case, SQLite ignores case", () => {
    const sql = 'with "Secrets" as (select * from sales) select * from secrets';
    refuse(sql, "postgresql", /secrets is not one this assistant may read/);
    expect(checkReadOnlySql(sql, "sqlite", TABLES).tables).toEqual(["sales"]);
    expect(
      checkReadOnlySql('with "Totals" as (select * from sales) select * from "Totals"', "postgresql", TABLES).tables,
    ).toEqual(["sales"]);
  });

  it("compares PostgreSQL's table names as it does: a quoted name keeps its case; a table left out stays out", () => {
    // The database holds "Secrets" (left out) and secrets (allowed), or Sales created with quotes (allowed).
    const allowed = ["secrets", "Sales"];
    const check = (sql: string) => checkReadOnlySql(sql, "postgresql", allowed).tables;
    expect(() => check('select * from "Secrets"')).toThrow(/Secrets is not one this assistant may read/);
    expect(() => check('select * from secrets s join "Secrets" x on x.id = s.id')).toThrow(/Secrets/);
    expect(check("select * from secrets")).toEqual(["secrets"]);
    expect(check("select * from SECRETS")).toEqual(["secrets"]); // folded to lower case
    expect(check('select * from "Sales"')).toEqual(["sales"]);
    // Unquoted, it is the table sales, which the database does not hold: the model is told how to name it.
    expect(() => check("select * from Sales")).toThrow(/write "Sales"/);
    // SQLite ignores case: the two cannot both exist there.
    expect(checkReadOnlySql('select * from "SECRETS"', "sqlite", allowed).tables).toEqual(["secrets"]);
  });

  it("reads LATERAL, keyword arguments and alias column lists (PostgreSQL) as neither tables nor calls", () => {
    const tables = (sql: string) => checkReadOnlySql(sql, "postgresql", TABLES).tables.sort();
    expect(
      tables("select * from sales s cross join lateral (select * from customers c where c.id = s.customer_id) x"),
    ).toEqual(["customers", "sales"]);
    expect(tables("select extract(year from sold_on) as y from sales")).toEqual(["sales"]);
    expect(tables("select * from sales where amount is distinct from region")).toEqual(["sales"]);
    expect(tables("select * from (values (1, 'a')) as v(id, name), sales")).toEqual(["sales"]);
  });

  it("refuses catalogs where a table or schema stands, not as any word: a column may be named sys or pg_x", () => {
    const allowed = ["readings"];
    for (const dialect of ["postgresql", "sqlite"] as const) {
      const check = (sql: string) => checkReadOnlySql(sql, dialect, allowed).tables;
      expect(check("select avg(sys) as systolic, max(pg_level) from readings")).toEqual(["readings"]);
      expect(check('select "SYS", readings.sys from readings')).toEqual(["readings"]);
      for (const sql of [
        "select * from sys.objects",
        "select * from readings r join pg_catalog.pg_user u on true",
        "select * from pg_user",
        "select * from readings where sys in (select sys from sqlite_master)",
        "select information_schema.tables.table_name from readings",
        "select * from readings where exists (table pg_shadow)",
      ])
        expect(() => checkReadOnlySql(sql, dialect, allowed), sql).toThrow(/System catalogs are not allowed/);
    }
  });

  it('reads a doubled quote inside a quoted name as one quote: "we""ird" is the table we"ird', () => {
    const allowed = ['we"ird', "sales"];
    expect(checkReadOnlySql('select id from "we""ird"', "postgresql", allowed)).toEqual({
      sql: 'select id from "we""ird"',
      tables: ['we"ird'],
    });
    expect(
      checkReadOnlySql('select w.id from "we""ird" as w join sales s on s.id = w.id', "sqlite", allowed).tables,
    ).toEqual(['we"ird', "sales"]);
    // The table `we` aliased `ird` is not the one allowed; a name cut short is still refused.
    expect(() => checkReadOnlySql('select id from "we" "ird"', "postgresql", allowed)).toThrow(/we is not one/);
    expect(() => checkReadOnlySql('select id from "we""', "postgresql", allowed)).toThrow(/Unterminated/);
  });
});
