import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, noContent } from "../../lib/openapi";
import { forbidden, notFound } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { authorize, can } from "../../services/access";
import { getConnector } from "../../services/mcp/connectors";
import { revokeMemberCredential } from "../../services/mcp/credentials";
import { CONNECTORS_TAG, MemberParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/connectors/{id}/authorized-members/{memberId}/",
  tags: [CONNECTORS_TAG],
  summary: "Revoke a member's credential for a connector",
  description:
    "Needs `tool.manage`, or `tool.view` to revoke your own. The credential is deleted: the next call of the " +
    "connector's tools on that " +
    "member's behalf sends the connector's own headers. 404 when the member holds none.",
  request: { params: MemberParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerRevokeAuthorizedMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "tool.view");
    const { id, memberId } = c.req.valid("param");
    const { connector } = await getConnector(c.var.db, access.organizationId, id);
    if (memberId !== access.memberId && !can(access, "tool.manage"))
      throw forbidden("Revoking another member's credential needs tool.manage.");
    if (
      !isUuid(memberId) ||
      !(await revokeMemberCredential(c.var.db, access.organizationId, memberId, { connectorId: connector.id }))
    ) {
      throw notFound("That member holds no credential for this connector.");
    }
    return c.body(null, 204);
  });
