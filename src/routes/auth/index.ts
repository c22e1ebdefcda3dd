import type { Router } from "../../lib/openapi";
import { registerRegistration } from "./register";
import { registerLogin } from "./login";
import { registerChangePassword } from "./change-password";

export function registerAuthRoutes(r: Router) {
  registerRegistration(r);
  registerLogin(r);
  registerChangePassword(r);
}
