import type { ToolRow } from "./access";
import type { AgentTool } from "../agent/types";
import { toolDescription } from "./definition";

type Spec = { key: string; path: string; prompt: string; tag?: string };

/** flexSchema `{path: prompt | {prompt, tag}}` as argument specs; keys are the paths made safe for function arguments.
 * */
export function flexSpecs(schema: Record<string, unknown> | null): Spec[] {
  return Object.entries(schema ?? {}).map(([path, spec], i) => {
    const prompt = typeof spec === "string" ? spec : String((spec as { prompt?: unknown }).prompt ?? "");
    const tag =
      typeof spec === "object" && spec && typeof (spec as { tag?: unknown }).tag === "string"
        ? (spec as { tag: string }).tag
        : undefined;
    const key =
      path
        .replace(/[^A-Za-z0-9_]/g, "_")
        .replace(/^_+|_+$/g, "")
        .slice(0, 60) || `field_${i + 1}`;
    return { key, path, prompt, tag };
  });
}

/**
 * Fills the flex template with the model's values, without evaluating anything: each flexSchema
 * path (dot-separated, numeric parts index arrays) is set to its value, and `{{path}}` or `{{tag}}`
 * placeholders inside strings are replaced.
 */
export function renderFlex(template: Record<string, unknown>, specs: Spec[], values: Record<string, unknown>): unknown {
  const out = structuredClone(template) as Record<string, unknown>;
  const byName = new Map<string, string>();
  for (const s of specs) {
    const v = values[s.key];
    if (v === undefined || v === null) continue;
    const text = typeof v === "string" ? v : JSON.stringify(v);
    byName.set(s.path, text);
    if (s.tag) byName.set(s.tag, text);
    setPath(out, s.path.split("."), v);
  }
  const walk = (node: unknown): unknown => {
    if (typeof node === "string")
      return node.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (m, name: string) => byName.get(name) ?? m);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  return walk(out);
}

function setPath(target: Record<string, unknown>, parts: string[], value: unknown) {
  // Own members only: a path through "__proto__" would reach Object.prototype, and setting "__proto__.toString"
  // would change every object of the isolate, other organizations' requests included.
  const member = (node: unknown, name: string) =>
    node && typeof node === "object" && Object.hasOwn(node, name) ? (node as Record<string, unknown>)[name] : undefined;
  let node: unknown = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = member(node, parts[i]);
    if (!next || typeof next !== "object") return; // a path the template lacks is filled only through placeholders
    node = next;
  }
  const last = parts[parts.length - 1];
  if (node && typeof node === "object" && Object.hasOwn(node, last)) {
    const current = (node as Record<string, unknown>)[last];
    // A placeholder string at the path is replaced through the walk, keeping the text around it.
    if (typeof current === "string" && /\{\{/.test(current)) return;
    (node as Record<string, unknown>)[last] = value;
  }
}

/** A flex tool: the model fills the prompts of flexSchema; the rendered message goes to the reply's
 * contentPayload.flex. */
export function flexTool(row: ToolRow): AgentTool {
  const specs = flexSpecs(row.flexSchema);
  return {
    name: row.name!,
    description: toolDescription(row),
    parameters: {
      type: "object",
      properties: Object.fromEntries(specs.map((s) => [s.key, { type: "string", description: s.prompt }])),
      required: specs.map((s) => s.key),
    },
    displayName: row.displayName,
    kind: "flex",
    toolId: row.id,
    hints: `${row.name} ${row.displayName} ${row.description}`,
    async run(args) {
      const message = renderFlex(row.flexTemplateJson ?? {}, specs, args);
      return {
        status: "success",
        output: message,
        forModel: "The flex message was shown to the user. Do not repeat its content.",
        payload: { flex: [message] },
      };
    },
  };
}
