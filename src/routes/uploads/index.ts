import type { Router } from "../../lib/openapi";
import { registerAllowedFileSpecs } from "./file-specs";
import { registerGetObject } from "./get-object";
import { registerPostObject } from "./post-object";
import { registerPresignUpload } from "./presign";
import { registerPutObject } from "./put-object";

export function registerUploadRoutes(r: Router) {
  registerAllowedFileSpecs(r);
  registerPresignUpload(r);
  registerPostObject(r);
  registerPutObject(r);
  registerGetObject(r);
}
