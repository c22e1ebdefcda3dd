import type { TestProject } from "vitest/node";
import { startUpstream } from "./openai-upstream.mjs";
import { startReceiver } from "./webhook-receiver.mjs";
import { startMcpServer } from "./mcp-server.mjs";
import { startPlatforms } from "./platforms/index.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the local OpenAI-compatible upstream (no trailing slash, no /v1). */
    upstreamUrl: string;
    /** Base URL of the local webhook receiver (test/support/webhook-receiver.mjs). */
    receiverUrl: string;
    /** Base URL of the local MCP server (test/support/mcp-server.mjs). */
    mcpServerUrl: string;
    /** The messaging platforms' stand-ins (test/support/platforms): base URL by name, and by setting
     * (LINE_API_ORIGIN...). */
    platformUrls: Record<string, string>;
    platformSettings: Record<string, string>;
  }
}

/** Runs in Node before the workers start: one upstream for the whole run, given to them as a binding. */
export default async function setup(project: TestProject) {
  // Words 5 ms apart: a 20-word reply in 0.1 s, not the 1 s of 50 ms that each of the ~115 replies a project asks at
  // the default pace waited for real (docs/decisions.md, "The test run in two stages"). A test whose meaning is in the
  // pace (a reply still being written, a client leaving mid-answer) names its own: `-pace-<ms>`, `delay-<ms>`,
  // `story-<ms>`.
  const upstream = await startUpstream({ tokenDelayMs: 5 });
  const receiver = await startReceiver();
  const mcp = await startMcpServer();
  const platforms = await startPlatforms();
  project.provide("platformUrls", platforms.urls);
  project.provide("platformSettings", platforms.settings);
  project.provide("upstreamUrl", upstream.url);
  project.provide("receiverUrl", receiver.url);
  project.provide("mcpServerUrl", mcp.url);
  return async () => {
    await platforms.close();
    await mcp.close();
    await receiver.close();
    await upstream.close();
  };
}
