import { api, unwrap, type Schemas } from "../../api/client";
import type { paths } from "../../api/schema";

export type Tool = Schemas["Tool"];
export type ToolWrite = paths["/api/v1/tools/"]["post"]["requestBody"]["content"]["application/json"];
export type RemoteTool = Schemas["McpRemoteTool"];
export type Connector = Schemas["Connector"];
export type ConnectorWrite = paths["/api/v1/connectors/"]["post"]["requestBody"]["content"]["application/json"];
export type RegistryEntry = Schemas["McpRegistryEntry"];

/** Every type, desktop tools included (the list leaves them out unless asked for the desktop client). */
export const listTools = (page: number) =>
  unwrap(api.GET("/api/v1/tools/", { params: { query: { page, pageSize: 20, clientPlatform: "desktop" } } }));
export const createTool = (body: ToolWrite) => unwrap(api.POST("/api/v1/tools/", { body }));
export const updateTool = (id: string, body: Partial<ToolWrite>) =>
  unwrap(api.PATCH("/api/v1/tools/{id}/", { params: { path: { id } }, body }));
export const deleteTool = (id: string) => unwrap(api.DELETE("/api/v1/tools/{id}/", { params: { path: { id } } }));

/** The tools an MCP server offers, asked with the headers the form holds (or the stored tool's). */
export const availableTools = (mcpUrl: string, rawMcpHeader: Record<string, unknown> | null, toolId?: string) =>
  unwrap(
    api.GET("/api/v1/tools/available-tools/", {
      params: { query: { mcpUrl, rawMcpHeader: rawMcpHeader ? JSON.stringify(rawMcpHeader) : undefined, toolId } },
    }),
  );

export const listConnectors = (page: number) =>
  unwrap(api.GET("/api/v1/connectors/", { params: { query: { page, pageSize: 20 } } }));
export const createConnector = (body: ConnectorWrite) => unwrap(api.POST("/api/v1/connectors/", { body }));
export const updateConnector = (id: string, body: Partial<ConnectorWrite>) =>
  unwrap(api.PATCH("/api/v1/connectors/{id}/", { params: { path: { id } }, body }));
export const deleteConnector = (id: string) =>
  unwrap(api.DELETE("/api/v1/connectors/{id}/", { params: { path: { id } } }));
export const listRegistry = () => unwrap(api.GET("/api/v1/mcp/registry/"));

export type CredentialWrite = Schemas["McpCredentialWrite"];
/** Whether the signed-in user holds a personal credential for each connector (from its authorized members). */
export const myCredentials = (connectorIds: string[], userId: string) =>
  Promise.all(
    connectorIds.map(async (id) => {
      const holders = await unwrap(
        api.GET("/api/v1/connectors/{id}/authorized-members/", { params: { path: { id } } }),
      );
      return [id, holders.find((h) => h.user.id === userId) ?? null] as const;
    }),
  ).then((pairs) => new Map(pairs));
export const storeCredential = (id: string, body: CredentialWrite) =>
  unwrap(api.POST("/api/v1/connectors/{id}/credentials/", { params: { path: { id } }, body }));
export const removeCredential = (id: string) =>
  unwrap(api.DELETE("/api/v1/connectors/{id}/credentials/", { params: { path: { id } } }));
