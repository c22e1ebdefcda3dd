import { api, unwrap, type BodyOf } from "../../api/client";

/** A console session (the cookie), with e-mail and password or an API key; answers the session's state. */
export const createSession = (body: BodyOf<"/api/v1/auth/sessions/", "post">) =>
  unwrap(api.POST("/api/v1/auth/sessions/", { body }));

/** A new user with an organization of their own (403 when registration is closed). */
export const register = (body: BodyOf<"/api/v1/auth/registration/", "post">) =>
  unwrap(api.POST("/api/v1/auth/registration/", { body }));
