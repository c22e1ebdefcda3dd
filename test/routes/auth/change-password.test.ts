import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, registerUser } from "../../harness";
import { signIn } from "../sessions/fixtures";

const OLD = "correct horse battery";
const NEW = "staple battery horse";

/** A registered user with a password, and their key. */
async function register() {
  const { email, registered } = await registerUser(OLD, "pw");
  const { apiKey } = registered;
  const change = (body: unknown, prefix = "/api/v1") =>
    call("POST", `${prefix}/auth/password/change/`, body, { Authorization: `Api-Key ${apiKey}` });
  return { email, change };
}
const login = (email: string, password: string) => call("POST", "/api/v1/auth/login/", { email, password });

describe("POST /auth/password/change/", () => {
  it("401 without a key", async () => {
    await expectError(
      await call("POST", "/api/v1/auth/password/change/", { oldPassword: OLD, newPassword1: NEW, newPassword2: NEW }),
      401,
      "not_authenticated",
    );
  });

  it.each(PREFIXES)("changes the password (snake_case keys) under %s", async (prefix) => {
    const { email, change } = await register();
    const res = await change({ old_password: OLD, new_password1: NEW, new_password2: NEW }, prefix);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ detail: expect.any(String) });
    expect((await login(email, NEW)).status).toBe(200);
    await expectError(await login(email, OLD), 400);
  });

  it("400 on a wrong old password, and the password stays", async () => {
    const { email, change } = await register();
    const body = await expectError(
      await change({ oldPassword: "not the password", newPassword1: NEW, newPassword2: NEW }),
      400,
    );
    expect(body.errors?.oldPassword).toBeDefined();
    expect((await login(email, OLD)).status).toBe(200);
    await expectError(await login(email, NEW), 400);
  });

  it("400 on mismatched or short new passwords, naming the field, and the password stays", async () => {
    const { email, change } = await register();
    const mismatch = await expectError(
      await change({ old_password: OLD, new_password1: NEW, new_password2: `${NEW}!` }),
      400,
      "invalid",
    );
    expect(mismatch.errors?.newPassword2).toBeDefined();
    const short = await expectError(
      await change({ old_password: OLD, new_password1: "short", new_password2: "short" }),
      400,
      "invalid",
    );
    expect(short.errors?.newPassword1).toBeDefined();
    expect((await login(email, OLD)).status).toBe(200);
  });

  it("ends the user's other console sessions, keeping the one that changed it; API keys keep working", async () => {
    const { email, registered } = await registerUser(OLD, "pw");
    const [here, there] = await Promise.all([signIn({ email, password: OLD }), signIn({ email, password: OLD })]);
    const res = await here.fetch("POST", "/auth/password/change/", {
      oldPassword: OLD,
      newPassword1: NEW,
      newPassword2: NEW,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await expectError(await there.fetch("GET", "/users/current/"), 401, "not_authenticated");
    expect((await here.fetch("GET", "/users/current/")).status).toBe(200);
    const key = { Authorization: `Api-Key ${registered.apiKey}` };
    expect((await call("GET", "/api/v1/users/current/", undefined, key)).status).toBe(200);

    // Changed with an API key, every session ends.
    const body = { oldPassword: NEW, newPassword1: OLD, newPassword2: OLD };
    expect((await call("POST", "/api/v1/auth/password/change/", body, key)).status).toBe(200);
    await expectError(await here.fetch("GET", "/users/current/"), 401, "not_authenticated");
  });
});
