import type { Router } from "../../lib/openapi";
import { getConnector } from "../../services/mcp/connectors";
import type { TargetAsRead } from "../../services/mcp/credentials";
import { registerCredentialRoutes, type TargetOf } from "../mcp/credential-routes";
import { CONNECTORS_TAG } from "./schema";

const connectorOf: TargetOf<TargetAsRead> = async (c, access, id) => {
  const { connector } = await getConnector(c.var.db, access.organizationId, id);
  return { connectorId: connector.id, serverUrl: connector.serverUrl };
};

export const registerConnectorCredentials = (r: Router) =>
  registerCredentialRoutes(r, {
    path: "/connectors/{id}/credentials/",
    tag: CONNECTORS_TAG,
    store: {
      summary: "Store your own credential for a connector",
      description:
        "Needs `tool.view`. Replaces any credential you held for it. Write-only, encrypted at rest (503 " +
        "`not_configured` without ENCRYPTION_KEY). " +
        "Conversations you start send these headers instead of the connector's `authHeaders` (a contact's own " +
        "credential still comes first). " +
        "You then appear in `authorized-members`. It is given for the connector's server as this request finds it: " +
        "409, nothing stored, when the connector is pointed at another server meanwhile.",
      target: connectorOf,
    },
    remove: {
      summary: "Delete your own credential for a connector",
      description: "Needs `tool.view`. Takes effect on the next call. 204 also when you held none.",
      target: connectorOf,
    },
  });
