import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../../src/db/schema";
import { PREFIXES, call, db, expectError, unique } from "../../harness";
import { bodyOf } from "../../support/api";

const PASSWORD = "correct horse battery";
const registration = (overrides: Record<string, unknown> = {}) => ({
  email: `${unique("reg")}@example.com`,
  password1: PASSWORD,
  password2: PASSWORD,
  name: "Ada Lovelace",
  company: unique("Acme"),
  ...overrides,
});
const login = (email: string, password = PASSWORD) => call("POST", "/api/v1/auth/login/", { email, password });
const userByEmail = (email: string) => db().select().from(users).where(eq(users.email, email.toLowerCase()));

describe("POST /auth/registration/", () => {
  it.each(PREFIXES)("creates the user, their organization and a working key under %s", async (prefix) => {
    const input = registration();
    const res = await call("POST", `${prefix}/auth/registration/`, input);
    expect(res.status, await res.clone().text()).toBe(201);
    const body = await bodyOf<"POST /auth/registration/">(res);
    expect(body.user).toMatchObject({
      email: input.email,
      name: "Ada Lovelace",
      company: input.company,
      isStaff: false,
    });
    expect(body.user).not.toHaveProperty("passwordHash");
    expect(body.organization).toMatchObject({ name: input.company });
    expect(body.apiKey).toMatch(/^ak_[0-9A-Za-z]{40}$/);

    const current = await call("GET", `${prefix}/users/current/`, undefined, {
      Authorization: `Api-Key ${body.apiKey}`,
    });
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({ id: body.user.id, email: input.email });
    expect((await login(input.email)).status).toBe(200);
  });

  it("accepts snake_case keys (auth_source, referral_code) and needs no API key", async () => {
    const input = registration({ referral_code: "FRIEND", auth_source: { id: "web" } });
    const res = await call("POST", "/api/auth/registration", input);
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("400 on mismatched passwords, naming password2, and writes nothing", async () => {
    const input = registration({ password2: "something else entirely" });
    const body = await expectError(await call("POST", "/api/v1/auth/registration/", input), 400, "invalid");
    expect(body.errors?.password2).toBeDefined();
    expect(await userByEmail(input.email)).toHaveLength(0);
    await expectError(await login(input.email), 400);
  });

  it("400 on a short password and on a missing company, and writes nothing", async () => {
    const short = registration({ password1: "short", password2: "short" });
    const shortBody = await expectError(await call("POST", "/api/v1/auth/registration/", short), 400, "invalid");
    expect(shortBody.errors?.password1).toBeDefined();
    expect(await userByEmail(short.email)).toHaveLength(0);

    const { company: _, ...noCompany } = registration();
    const body = await expectError(await call("POST", "/api/v1/auth/registration/", noCompany), 400, "invalid");
    expect(body.errors?.company).toBeDefined();
    expect(await userByEmail(noCompany.email)).toHaveLength(0);
    await expectError(await login(noCompany.email), 400);
  });

  it("409 on an e-mail that is already registered, whatever its case", async () => {
    const input = registration();
    expect((await call("POST", "/api/v1/auth/registration/", input)).status).toBe(201);
    await expectError(
      await call("POST", "/api/v1/auth/registration/", { ...input, company: unique("Other") }),
      409,
      "conflict",
    );
    await expectError(
      await call("POST", "/api/v1/auth/registration/", { ...input, email: input.email.toUpperCase() }),
      409,
      "conflict",
    );
    expect(await userByEmail(input.email)).toHaveLength(1);
  });
});
