import { api, unwrap, type BodyOf } from "../../api/client";

/** Saves the signed-in user's name and e-mail; answers the user as saved. */
export const updateMe = (body: BodyOf<"/api/v1/users/current/", "put">) =>
  unwrap(api.PUT("/api/v1/users/current/", { body }));

export const changePassword = (body: BodyOf<"/api/v1/auth/password/change/", "post">) =>
  unwrap(api.POST("/api/v1/auth/password/change/", { body }));
