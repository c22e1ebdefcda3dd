import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, registerUser } from "../../harness";

const PASSWORD = "correct horse battery";

const register = async () => (await registerUser(PASSWORD, "login")).email;

describe("POST /auth/login/", () => {
  it.each(PREFIXES)("returns a new key that works under %s", async (prefix) => {
    const email = await register();
    const res = await call("POST", `${prefix}/auth/login/`, { email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    const { key } = await res.json<{ key: string }>();
    expect(key).toMatch(/^ak_[0-9A-Za-z]{40}$/);
    const current = await call("GET", `${prefix}/users/current/`, undefined, { Authorization: `Api-Key ${key}` });
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({ email });
  });

  it("400 on a wrong password or an unknown e-mail, without a key", async () => {
    const email = await register();
    const wrong = await expectError(
      await call("POST", "/api/v1/auth/login/", { email, password: "wrong password" }),
      400,
    );
    expect(wrong).not.toHaveProperty("key");
    await expectError(await call("POST", "/api/v1/auth/login/", { email: `nobody-${email}`, password: PASSWORD }), 400);
  });

  it("400 naming the fields on missing input", async () => {
    const body = await expectError(
      await call("POST", "/api/v1/auth/login/", { email: "not-an-email" }),
      400,
      "invalid",
    );
    expect(Object.keys(body.errors!)).toEqual(expect.arrayContaining(["email", "password"]));
  });
});
