// The queryMetadata request schema: part of the contact bodies (records/contacts.ts), and read by the message,
// completion and knowledge search routes too. It sits below the routes because the contact services type their input
// from it.
import { z } from "@hono/zod-openapi";
import { LABEL_RELATION_MAX_DEPTH, normalizeQueryMetadata, type LabelRelation } from "../knowledge/query-scope";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

const ids = (description: string) =>
  z
    .array(z.uuid())
    .max(1000)
    .optional()
    .openapi({ description, example: [EXAMPLE_ID] });

export const KnowledgeBaseSelectionSchema = z
  .strictObject({
    knowledgeBaseId: z.uuid().openapi({ description: "Knowledge base this selection is about", example: EXAMPLE_ID }),
    chatbotFileIds: ids("Deprecated name of `knowledgeBaseFileIds`; stored as `knowledgeBaseFileIds`"),
    knowledgeBaseFileIds: ids("Files of the knowledge base; wins over `chatbotFileIds` when both are given"),
    faqIds: ids("FAQs of the knowledge base"),
    hasUserSelectedAll: z.boolean().openapi({
      description: "true: everything in the knowledge base except the listed ids; false: only the listed ids",
      example: true,
    }),
  })
  .openapi("QueryKnowledgeBase");

/** One node of the label tree: a leaf `{labelId}` or a group `{operator, conditions}`. */
export const LabelRelationSchema: z.ZodType<LabelRelation> = z
  .strictObject({
    labelId: z.uuid().optional().openapi({ description: "A label (leaf node)", example: EXAMPLE_ID }),
    operator: z
      .enum(["AND", "OR"])
      .optional()
      .openapi({ description: "How the conditions combine (group node)", example: "OR" }),
    get conditions(): z.ZodOptional<z.ZodArray<z.ZodType<LabelRelation>>> {
      return z
        .array(LabelRelationSchema)
        .max(100)
        .optional()
        .openapi({ description: "The nodes combined by `operator` (group node)", example: [{ labelId: EXAMPLE_ID }] });
    },
  })
  .superRefine((node, ctx) => {
    const leaf = node.labelId !== undefined;
    const group = node.operator !== undefined || node.conditions !== undefined;
    if (leaf && group)
      ctx.addIssue({ code: "custom", message: "A node is either {labelId} or {operator, conditions}, not both." });
    else if (!leaf && (node.operator === undefined || node.conditions === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [node.operator === undefined ? "operator" : "conditions"],
        message: "Required.",
      });
    }
  })
  .openapi("LabelRelation", {
    description: "`{operator, conditions}` where each condition is `{labelId}` or a nested `{operator, conditions}`",
    example: { operator: "OR", conditions: [{ labelId: EXAMPLE_ID }, { operator: "AND", conditions: [] }] },
  });

/** Depth of group nodes under (and including) `node`; leaves count 0. */
const depth = (node: LabelRelation): number => (node.conditions ? 1 + Math.max(0, ...node.conditions.map(depth)) : 0);

/**
 * A contact's (or a message's) limits on what can be retrieved (spec, Contact, rules 1-4). Unknown
 * keys are rejected at every level, so a misspelt restriction cannot silently mean "no restriction".
 * The parsed value is normalized: `chatbotFileIds` becomes `knowledgeBaseFileIds`.
 * `labelRelations` without `knowledgeBases` is accepted but has no effect (rule 4).
 */
export const QueryMetadataSchema = z
  .strictObject({
    knowledgeBases: z
      .array(KnowledgeBaseSelectionSchema)
      .max(100)
      .nullable()
      .optional()
      .openapi({
        description: "Absent: no restriction. Empty or null: nothing can be queried.",
        example: [{ knowledgeBaseId: EXAMPLE_ID, knowledgeBaseFileIds: [EXAMPLE_ID], hasUserSelectedAll: false }],
      }),
    labelRelations: LabelRelationSchema.nullable().optional(),
  })
  .superRefine((qm, ctx) => {
    const seen = new Set<string>();
    qm.knowledgeBases?.forEach((kb, i) => {
      if (seen.has(kb.knowledgeBaseId))
        ctx.addIssue({
          code: "custom",
          path: ["knowledgeBases", i, "knowledgeBaseId"],
          message: "Each knowledge base may appear once.",
        });
      seen.add(kb.knowledgeBaseId);
    });
    if (qm.labelRelations?.labelId !== undefined)
      ctx.addIssue({ code: "custom", path: ["labelRelations"], message: "The root must be {operator, conditions}." });
    if (qm.labelRelations && depth(qm.labelRelations) > LABEL_RELATION_MAX_DEPTH) {
      ctx.addIssue({
        code: "custom",
        path: ["labelRelations"],
        message: `Nested at most ${LABEL_RELATION_MAX_DEPTH} levels deep.`,
      });
    }
  })
  .transform(normalizeQueryMetadata)
  .openapi("QueryMetadata", {
    description: "Limits on which knowledge this contact can query",
    example: {
      knowledgeBases: [{ knowledgeBaseId: EXAMPLE_ID, knowledgeBaseFileIds: [EXAMPLE_ID], hasUserSelectedAll: false }],
    },
  });
