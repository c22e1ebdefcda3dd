import { describe, expect, it } from "vitest";
import { QueryMetadataSchema } from "../../../src/services/records/query-metadata";
import {
  normalizeQueryMetadata,
  queryScope,
  type QueryMetadata,
  type QueryScope,
} from "../../../src/services/knowledge/query-scope";

const KB = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const KB2 = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c40";
const F1 = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e";
const F2 = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3f";
const Q1 = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c41";
const L1 = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c42";
const labels = { operator: "AND" as const, conditions: [{ labelId: L1 }] };

describe("queryScope (spec, Contact, queryMetadata rules 1-4)", () => {
  const cases: [string, QueryMetadata | null | undefined, QueryScope][] = [
    ["no queryMetadata: no restriction", undefined, { mode: "unrestricted" }],
    ["null queryMetadata: no restriction", null, { mode: "unrestricted" }],
    ["knowledgeBases absent: no restriction (rule 3)", {}, { mode: "unrestricted" }],
    ["labelRelations without knowledgeBases: no effect (rule 4)", { labelRelations: labels }, { mode: "unrestricted" }],
    ["knowledgeBases null: nothing (rule 3)", { knowledgeBases: null }, { mode: "none" }],
    ["knowledgeBases empty: nothing (rule 3)", { knowledgeBases: [], labelRelations: labels }, { mode: "none" }],
    [
      "hasUserSelectedAll true: everything but the listed ids (rule 2)",
      { knowledgeBases: [{ knowledgeBaseId: KB, knowledgeBaseFileIds: [F1], faqIds: [Q1], hasUserSelectedAll: true }] },
      {
        mode: "restricted",
        knowledgeBases: [
          { knowledgeBaseId: KB, selection: "all_except_listed", knowledgeBaseFileIds: [F1], faqIds: [Q1] },
        ],
        labelRelations: null,
      },
    ],
    [
      "hasUserSelectedAll true with no ids: the whole knowledge base",
      { knowledgeBases: [{ knowledgeBaseId: KB, hasUserSelectedAll: true }] },
      {
        mode: "restricted",
        knowledgeBases: [{ knowledgeBaseId: KB, selection: "all_except_listed", knowledgeBaseFileIds: [], faqIds: [] }],
        labelRelations: null,
      },
    ],
    [
      "hasUserSelectedAll false: only the listed ids (rule 2); none listed selects nothing of it",
      {
        knowledgeBases: [
          { knowledgeBaseId: KB, knowledgeBaseFileIds: [F1], hasUserSelectedAll: false },
          { knowledgeBaseId: KB2, hasUserSelectedAll: false },
        ],
      },
      {
        mode: "restricted",
        knowledgeBases: [
          { knowledgeBaseId: KB, selection: "only_listed", knowledgeBaseFileIds: [F1], faqIds: [] },
          { knowledgeBaseId: KB2, selection: "only_listed", knowledgeBaseFileIds: [], faqIds: [] },
        ],
        labelRelations: null,
      },
    ],
    [
      "knowledgeBaseFileIds wins over chatbotFileIds (rule 1)",
      {
        knowledgeBases: [
          { knowledgeBaseId: KB, chatbotFileIds: [F2], knowledgeBaseFileIds: [F1], hasUserSelectedAll: false },
        ],
      },
      {
        mode: "restricted",
        knowledgeBases: [{ knowledgeBaseId: KB, selection: "only_listed", knowledgeBaseFileIds: [F1], faqIds: [] }],
        labelRelations: null,
      },
    ],
    [
      "chatbotFileIds alone is read as knowledgeBaseFileIds",
      { knowledgeBases: [{ knowledgeBaseId: KB, chatbotFileIds: [F2], hasUserSelectedAll: false }] },
      {
        mode: "restricted",
        knowledgeBases: [{ knowledgeBaseId: KB, selection: "only_listed", knowledgeBaseFileIds: [F2], faqIds: [] }],
        labelRelations: null,
      },
    ],
    [
      "labelRelations alongside knowledgeBases apply (rule 4)",
      { knowledgeBases: [{ knowledgeBaseId: KB, hasUserSelectedAll: true }], labelRelations: labels },
      {
        mode: "restricted",
        knowledgeBases: [{ knowledgeBaseId: KB, selection: "all_except_listed", knowledgeBaseFileIds: [], faqIds: [] }],
        labelRelations: labels,
      },
    ],
    [
      "labelRelations with empty conditions: no label filtering (rule 4)",
      {
        knowledgeBases: [{ knowledgeBaseId: KB, hasUserSelectedAll: true }],
        labelRelations: { operator: "OR", conditions: [] },
      },
      {
        mode: "restricted",
        knowledgeBases: [{ knowledgeBaseId: KB, selection: "all_except_listed", knowledgeBaseFileIds: [], faqIds: [] }],
        labelRelations: null,
      },
    ],
  ];
  it.each(cases)("%s", (_, input, expected) => {
    expect(queryScope(input)).toEqual(expected);
  });
});

describe("normalizeQueryMetadata", () => {
  it("keeps only knowledgeBaseFileIds and leaves the rest alone", () => {
    expect(
      normalizeQueryMetadata({
        knowledgeBases: [
          { knowledgeBaseId: KB, chatbotFileIds: [F2], knowledgeBaseFileIds: [F1], hasUserSelectedAll: false },
          { knowledgeBaseId: KB2, chatbotFileIds: [F2], hasUserSelectedAll: true },
          { knowledgeBaseId: KB2, hasUserSelectedAll: true },
        ],
        labelRelations: labels,
      }),
    ).toEqual({
      knowledgeBases: [
        { knowledgeBaseId: KB, knowledgeBaseFileIds: [F1], hasUserSelectedAll: false },
        { knowledgeBaseId: KB2, knowledgeBaseFileIds: [F2], hasUserSelectedAll: true },
        { knowledgeBaseId: KB2, hasUserSelectedAll: true },
      ],
      labelRelations: labels,
    });
    expect(normalizeQueryMetadata({ knowledgeBases: null })).toEqual({ knowledgeBases: null });
  });
});

describe("QueryMetadataSchema", () => {
  const nest = (depth: number): unknown =>
    depth === 0 ? { labelId: L1 } : { operator: "OR", conditions: [nest(depth - 1)] };
  const issues = (value: unknown) => {
    const result = QueryMetadataSchema.safeParse(value);
    return result.success ? [] : result.error.issues.map((i) => i.path.join("."));
  };

  it("accepts the documented shapes, and normalizes", () => {
    expect(issues({})).toEqual([]);
    expect(issues({ knowledgeBases: null })).toEqual([]);
    expect(issues({ knowledgeBases: [], labelRelations: null })).toEqual([]);
    expect(issues({ labelRelations: { operator: "OR", conditions: [] } })).toEqual([]);
    expect(issues({ labelRelations: nest(5) })).toEqual([]);
    expect(
      QueryMetadataSchema.parse({
        knowledgeBases: [{ knowledgeBaseId: KB, chatbotFileIds: [F1], hasUserSelectedAll: true }],
      }),
    ).toEqual({
      knowledgeBases: [{ knowledgeBaseId: KB, knowledgeBaseFileIds: [F1], hasUserSelectedAll: true }],
    });
  });

  it.each([
    ["unknown top-level key", { knowledge_bases: [] }, ""],
    [
      "unknown key in a knowledge base",
      { knowledgeBases: [{ knowledgeBaseId: KB, hasUserSelectedAll: true, everything: true }] },
      "knowledgeBases.0",
    ],
    [
      "missing hasUserSelectedAll",
      { knowledgeBases: [{ knowledgeBaseId: KB }] },
      "knowledgeBases.0.hasUserSelectedAll",
    ],
    [
      "malformed file id",
      { knowledgeBases: [{ knowledgeBaseId: KB, faqIds: ["q1"], hasUserSelectedAll: true }] },
      "knowledgeBases.0.faqIds.0",
    ],
    [
      "duplicate knowledge base",
      {
        knowledgeBases: [
          { knowledgeBaseId: KB, hasUserSelectedAll: true },
          { knowledgeBaseId: KB, hasUserSelectedAll: true },
        ],
      },
      "knowledgeBases.1.knowledgeBaseId",
    ],
    ["root is a leaf", { labelRelations: { labelId: L1 } }, "labelRelations"],
    ["group without conditions", { labelRelations: { operator: "AND" } }, "labelRelations.conditions"],
    [
      "node both leaf and group",
      { labelRelations: { operator: "AND", conditions: [{ labelId: L1, operator: "OR", conditions: [] }] } },
      "labelRelations.conditions.0",
    ],
    [
      "unknown key in a label node",
      { labelRelations: { operator: "AND", conditions: [{ label: L1 }] } },
      "labelRelations.conditions.0",
    ],
    ["too deep", { labelRelations: nest(6) }, "labelRelations"],
  ])("rejects %s", (_, value, path) => {
    expect(issues(value)).toContain(path);
  });
});
