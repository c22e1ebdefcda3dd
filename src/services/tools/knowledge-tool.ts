import { renderSources } from "../llm/prompt";
import { retrievePassages } from "../knowledge/retrieval";
import type { AgentTool } from "../agent/types";

export const KNOWLEDGE_TOOL = "search_knowledge_base";

/**
 * The assistant's knowledge bases as a tool: the model decides when to search and with which
 * words. Passages found are numbered across the reply's searches, so `[n]` cites them as in
 * normal mode, and they become the reply's citations.
 */
export function knowledgeTool(names: string[]): AgentTool {
  return {
    name: KNOWLEDGE_TOOL,
    description:
      `Search the assistant's knowledge bases (${names.join(", ").slice(0, 300)}) for passages that answer a ` +
      `question. Use it for any question about facts these may hold; cite passages as [n].`,
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "What to search for, in the user's language" } },
      required: ["query"],
    },
    displayName: "Knowledge base search",
    kind: "knowledge",
    toolId: null,
    hints: `search knowledge ${names.join(" ")}`,
    async run(args, ctx) {
      const query = typeof args.query === "string" && args.query.trim() ? args.query : ctx.incoming.content;
      const found = await retrievePassages(
        ctx.env,
        ctx.db,
        ctx.chatbot,
        { ...ctx.incoming, content: query },
        ctx.knowledgeBases,
        ctx.contactQueryMetadata,
      );
      const known = new Map(ctx.passages.map((p) => [p.text, p]));
      const numbered = found.map((p) => {
        const seen = known.get(p.text);
        if (seen) return seen;
        const added = { ...p, index: ctx.passages.length + 1 };
        ctx.passages.push(added);
        known.set(p.text, added);
        return added;
      });
      const output = numbered.map((p) => ({ index: p.index, title: p.title ?? null, text: p.text, score: p.score }));
      return { status: "success", output, forModel: numbered.length ? renderSources(numbered) : "No passages found." };
    },
  };
}
