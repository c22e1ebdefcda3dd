// The MCP SDK's runtime pieces we use, in one module that the client imports on first use: the SDK
// (with its zod schemas and ajv) cost ~30 ms of every cold start when imported up front (docs/decisions.md, "Cold
// start").
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
export { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
export { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
