import type { Router } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { getToolForRead } from "../../services/tools/access";
import { registerCredentialRoutes } from "../mcp/credential-routes";
import { TOOLS_TAG } from "./schema";

export const registerToolCredentials = (r: Router) =>
  registerCredentialRoutes(r, {
    path: "/tools/{id}/credentials/",
    tag: TOOLS_TAG,
    store: {
      summary: "Store your own credential for an MCP tool",
      description:
        "Needs `tool.view` and an `mcp` tool you can see. Replaces any credential you held for it. Write-only, " +
        "encrypted at rest (503 " +
        "`not_configured` without ENCRYPTION_KEY). Conversations you start, and `available-tools` with this " +
        "`toolId`, send these headers instead " +
        "of the tool's `rawMcpHeader` (a contact's own credential still comes first). It is given for the tool's " +
        "server as this request finds it: 409, nothing stored, when the tool is pointed at another server meanwhile.",
      target: async (c, access, id) => {
        const tool = await getToolForRead(c.var.db, access, id);
        if (tool.toolType !== "mcp") throw fieldError("id", "Only mcp tools take personal credentials.");
        return { toolId: tool.id, serverUrl: tool.mcpUrl };
      },
    },
    remove: {
      summary: "Delete your own credential for an MCP tool",
      description:
        "Needs `tool.view` and a tool you can see. Takes effect on the next call. 204 also when you held none.",
      target: async (c, access, id) => ({ toolId: (await getToolForRead(c.var.db, access, id)).id }),
    },
  });
