import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../lib/boolean-query";
import { PageQuery } from "../../lib/pagination";
import { EXAMPLE_ID } from "../mcp/schema";

export const CONNECTORS_TAG = "Connectors";

export const ConnectorListQuery = PageQuery.extend({
  isEnabled: booleanQuery({ description: "Only enabled (true) or disabled (false) connectors", example: "true" }),
});

export const MemberParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, description: "The connector's id", example: EXAMPLE_ID }),
  memberId: z
    .string()
    .openapi({ param: { name: "memberId", in: "path" }, description: "The member's id", example: EXAMPLE_ID }),
});
