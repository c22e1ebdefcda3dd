import type { Router } from "../../lib/openapi";
import { registerListSupportedFileTypes } from "./supported-file-types";

export function registerParserRoutes(r: Router) {
  registerListSupportedFileTypes(r);
}
