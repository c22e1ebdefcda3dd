import type { Router } from "../../../lib/openapi";
import { registerListFiles } from "./list";
import { registerCreateFiles } from "./create";
import { registerDeleteFiles } from "./delete";
import { registerReparseFiles } from "./reparse";
import { registerGetFile } from "./get";
import { registerDownloadFile } from "./download";
import { registerUpdateFileMetadata } from "./update-metadata";

export function registerFileRoutes(r: Router) {
  registerListFiles(r);
  registerCreateFiles(r);
  // Fixed paths (batch-delete, batch-reparse) before `{fileId}`.
  registerDeleteFiles(r);
  registerReparseFiles(r);
  registerGetFile(r);
  registerDownloadFile(r);
  registerUpdateFileMetadata(r);
}
