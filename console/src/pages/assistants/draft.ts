// The edit form's state: every writable field of the assistant record as the form holds it
// (text for text boxes, JSON as typed), and the PATCH of what changed.
import type { Assistant, AssistantPatch, IdName } from "./api";

export interface Draft {
  name: string;
  instructions: string;
  largeLanguageModel: string;
  fallbackLargeLanguageModel: string;
  embeddingModel: string;
  rerankerModel: string;
  replyMode: Assistant["replyMode"];
  template: string;
  unanswerableTemplate: string;
  agentMode: Assistant["agentMode"];
  numberOfRetrievedChunks: string;
  enableInLineCitations: boolean;
  outputMode: Assistant["outputMode"];
  rawOutputFormat: string;
  knowledgeBases: IdName[];
  tools: IdName[];
  skills: IdName[];
  groups: IdName[];
  enableEvaluation: boolean;
  databaseType: string;
  databaseUrl: string;
  includeTables: string;
  rag: string;
  builtInWorkflow: string;
  /** The handoff settings as the form holds them (the number as typed); saved whole, as the API replaces them. */
  handoff: { enabled: boolean; afterUnanswered: string; message: string; outsideHoursMessage: string };
}

const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value, null, 2));

export function draftOf(a: Assistant): Draft {
  return {
    name: a.name,
    instructions: a.instructions,
    largeLanguageModel: a.largeLanguageModel.id,
    fallbackLargeLanguageModel: a.fallbackLargeLanguageModel?.id ?? "",
    embeddingModel: a.embeddingModel?.id ?? "",
    rerankerModel: a.rerankerModel?.id ?? "",
    replyMode: a.replyMode,
    template: a.template ?? "",
    unanswerableTemplate: a.unanswerableTemplate ?? "",
    agentMode: a.agentMode,
    numberOfRetrievedChunks: String(a.numberOfRetrievedChunks),
    enableInLineCitations: a.enableInLineCitations,
    outputMode: a.outputMode,
    rawOutputFormat: json(a.rawOutputFormat),
    knowledgeBases: a.knowledgeBases,
    tools: a.tools,
    skills: a.skills,
    groups: a.groups,
    enableEvaluation: a.enableEvaluation,
    databaseType: a.databaseType ?? "",
    databaseUrl: a.databaseUrl ?? "",
    includeTables: json(a.includeTables),
    rag: a.rag ?? "",
    builtInWorkflow: a.builtInWorkflow ?? "",
    handoff: {
      enabled: a.handoff.enabled,
      afterUnanswered: String(a.handoff.afterUnanswered),
      message: a.handoff.message ?? "",
      outsideHoursMessage: a.handoff.outsideHoursMessage ?? "",
    },
  };
}

const LISTS = ["knowledgeBases", "tools", "skills", "groups"] as const;
const NULLABLE_TEXT = [
  "fallbackLargeLanguageModel",
  "embeddingModel",
  "rerankerModel",
  "template",
  "unanswerableTemplate",
  "databaseType",
  "databaseUrl",
  "rag",
  "builtInWorkflow",
] as const;
const JSON_FIELDS = ["rawOutputFormat", "includeTables"] as const;

/**
 * The PATCH body of the fields that differ from `initial`, or the fields whose JSON does not parse
 * (checked here: the API could only say "expected an object").
 */
export function patchOf(initial: Draft, draft: Draft): { patch: AssistantPatch; invalid: (keyof Draft)[] } {
  const patch: Record<string, unknown> = {};
  const invalid: (keyof Draft)[] = [];
  for (const key of Object.keys(draft) as (keyof Draft)[]) {
    if (JSON.stringify(draft[key]) === JSON.stringify(initial[key])) continue;
    const value = draft[key];
    if ((LISTS as readonly string[]).includes(key)) patch[key] = (value as IdName[]).map(({ id }) => ({ id }));
    else if ((NULLABLE_TEXT as readonly string[]).includes(key))
      patch[key] = (value as string).trim() === "" ? null : value;
    else if ((JSON_FIELDS as readonly string[]).includes(key)) {
      const text = (value as string).trim();
      try {
        patch[key] = text ? JSON.parse(text) : null;
      } catch {
        // JSON.parse of a string only throws a SyntaxError: the member's text is not JSON.
        invalid.push(key);
      }
    } else if (key === "numberOfRetrievedChunks") patch[key] = Number(value);
    else if (key === "handoff") {
      // The API replaces the settings with what is sent (left-out fields take defaults): all of them go.
      const h = value as Draft["handoff"];
      const text = (s: string) => (s.trim() === "" ? null : s);
      patch[key] = {
        enabled: h.enabled,
        afterUnanswered: Number(h.afterUnanswered),
        message: text(h.message),
        outsideHoursMessage: text(h.outsideHoursMessage),
      };
    } else patch[key] = value;
  }
  return { patch: patch as AssistantPatch, invalid };
}
