import type { ToolRow } from "./access";
import type { AgentTool } from "../agent/types";
import { toolDescription } from "./definition";

type Chip = { label: string; text: string };
const MAX_CHIPS = 13;

const chip = (item: unknown): Chip | null => {
  if (typeof item === "string" && item.trim())
    return { label: item.trim().slice(0, 100), text: item.trim().slice(0, 300) };
  if (item && typeof item === "object" && typeof (item as Chip).label === "string") {
    const { label, text } = item as { label: string; text?: unknown };
    return { label: label.slice(0, 100), text: (typeof text === "string" && text ? text : label).slice(0, 300) };
  }
  return null;
};

/**
 * A quick-reply tool: chip buttons in the reply's contentPayload.quickReplies. Static mode shows the
 * configured items; dynamic mode shows the labels the model writes (at most `maxItems`).
 */
export function quickReplyTool(row: ToolRow): AgentTool {
  const config = row.quickReplyConfig ?? {};
  const dynamic = config.mode === "dynamic";
  const max = Math.min(Math.max(Number(config.maxItems) || 5, 1), MAX_CHIPS);
  return {
    name: row.name!,
    description: toolDescription(row),
    parameters: dynamic
      ? {
          type: "object",
          properties: {
            items: {
              type: "array",
              items: { type: "string" },
              maxItems: max,
              description: "Short reply suggestions shown as buttons",
            },
          },
          required: ["items"],
        }
      : { type: "object", properties: {} },
    displayName: row.displayName,
    kind: "quick_reply",
    toolId: row.id,
    hints: `${row.name} ${row.displayName} ${row.description}`,
    async run(args) {
      const source = dynamic
        ? Array.isArray(args.items)
          ? args.items
          : []
        : Array.isArray(config.items)
          ? config.items
          : [];
      const chips = source
        .map(chip)
        .filter((c): c is Chip => !!c)
        .slice(0, dynamic ? max : MAX_CHIPS);
      if (!chips.length) return { status: "failure", error: "No quick replies to show." };
      return {
        status: "success",
        output: chips,
        forModel: `Quick replies shown to the user: ${chips.map((c) => c.label).join(", ")}.`,
        payload: { quickReplies: chips },
      };
    },
  };
}
