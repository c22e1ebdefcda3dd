import { describe, expect, it } from "vitest";
import { call } from "../../harness";
import { documentOf, type DocSchema } from "../../support/api";

const ROUTES: [string, string[]][] = [
  ["/inboxes/{inboxId}/webhooks/", ["get", "post"]],
  ["/inboxes/{inboxId}/webhooks/{webhookId}/", ["delete", "get", "patch", "put"]],
  ["/inboxes/{inboxId}/webhooks/{webhookId}/redeliver-failed/", ["post"]],
  ["/inboxes/{inboxId}/webhooks/{webhookId}/records/", ["get"]],
  ["/inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/", ["get"]],
  ["/inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/redeliver/", ["post"]],
  ["/chatbots/{chatbotPk}/webhook-records/", ["get"]],
  ["/chatbots/{chatbotPk}/webhook-records/{recordId}/", ["get"]],
];

describe("webhook routes in the OpenAPI document", () => {
  it("every route is there under both prefixes, tagged Webhooks, with examples on every field", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    for (const [path, methods] of ROUTES) {
      for (const prefix of ["/api/v1", "/api"]) {
        const item = doc.paths[`${prefix}${path}`];
        expect(Object.keys(item ?? {}).sort(), `${prefix}${path}`).toEqual(methods);
        for (const op of Object.values(item)) expect(op.tags).toEqual(["Webhooks"]);
      }
    }
    for (const name of [
      "Webhook",
      "WebhookWrite",
      "WebhookRecord",
      "RedeliverFailedWebhookEvents",
      "RedeliverFailedWebhookEventsResult",
    ]) {
      for (const [field, schema] of Object.entries<DocSchema>(doc.components.schemas[name].properties ?? {})) {
        // A referenced schema (IdName) carries its example beside the $ref, in allOf.
        const parts: DocSchema[] = [schema, ...(schema.allOf ?? [])];
        expect(
          parts.some((p) => "example" in p),
          `${name}.${field}: ${JSON.stringify(schema)}`,
        ).toBe(true);
      }
    }
    const query = doc.paths["/api/v1/chatbots/{chatbotPk}/webhook-records/"].get.parameters!.filter(
      (p) => p.in === "query",
    );
    expect(query.map((p) => p.name).sort()).toEqual([
      "endDate",
      "eventId",
      "page",
      "pageSize",
      "startDate",
      "status",
      "webhook",
    ]);
    expect(query.find((p) => p.name === "status")!.schema).toMatchObject({
      type: "string",
      enum: ["pending", "sending", "success", "failure", "failed"],
    });
  });
});
