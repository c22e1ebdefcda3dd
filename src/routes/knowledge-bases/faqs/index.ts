import type { Router } from "../../../lib/openapi";
import { registerListFaqs } from "./list";
import { registerCreateFaq } from "./create";
import { registerBatchDeleteFaqs } from "./batch-delete";
import { registerGetFaq } from "./get";
import { registerUpdateFaq } from "./update";
import { registerDeleteFaq } from "./delete";
import { registerUpdateFaqMetadata } from "./update-metadata";

export function registerFaqRoutes(r: Router) {
  registerListFaqs(r);
  registerCreateFaq(r);
  registerBatchDeleteFaqs(r);
  registerGetFaq(r);
  registerUpdateFaq(r);
  registerDeleteFaq(r);
  registerUpdateFaqMetadata(r);
}
