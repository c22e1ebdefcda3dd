import type { Router } from "../../lib/openapi";
import { registerCreateAttachment } from "./create";
import { registerCreateConversationAttachment } from "./create-for-conversation";
import { registerDeleteAttachment } from "./delete";
import { registerGetAttachment } from "./get";
import { registerDirectUpload } from "./upload";

export function registerAttachmentRoutes(r: Router) {
  registerDirectUpload(r);
  registerCreateAttachment(r);
  registerCreateConversationAttachment(r);
  registerGetAttachment(r);
  registerDeleteAttachment(r);
}
