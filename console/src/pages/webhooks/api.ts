import { api, type QueryOf, unwrap, type Schemas } from "../../api/client";

export type Webhook = Schemas["Webhook"];
export type WebhookWrite = Schemas["WebhookWrite"];
export type Delivery = Schemas["WebhookRecord"];
export type TestResult = Schemas["WebhookTestSendResult"];

const RECORDS = "/api/v1/inboxes/{inboxId}/webhooks/{webhookId}/records/";

/** The inboxes the member can see (the first 100): the page picks one. */
export const listInboxes = () =>
  unwrap(api.GET("/api/v1/inboxes/", { params: { query: { pageSize: 100 } } })).then((p) => p.results);

/** An inbox's webhooks, the first 100. */
export const listWebhooks = (inboxId: string) =>
  unwrap(api.GET("/api/v1/inboxes/{inboxId}/webhooks/", { params: { path: { inboxId }, query: { pageSize: 100 } } }));

export const createWebhook = (inboxId: string, body: WebhookWrite) =>
  unwrap(api.POST("/api/v1/inboxes/{inboxId}/webhooks/", { params: { path: { inboxId } }, body }));

export const updateWebhook = (inboxId: string, webhookId: string, body: WebhookWrite) =>
  unwrap(
    api.PATCH("/api/v1/inboxes/{inboxId}/webhooks/{webhookId}/", { params: { path: { inboxId, webhookId } }, body }),
  );

export const deleteWebhook = (inboxId: string, webhookId: string) =>
  unwrap(api.DELETE("/api/v1/inboxes/{inboxId}/webhooks/{webhookId}/", { params: { path: { inboxId, webhookId } } }));

/** Sends a test event to the webhook now; answers how it went. */
export const sendTestEvent = (inboxId: string, webhookId: string) =>
  unwrap(
    api.POST("/api/v1/inboxes/{inboxId}/webhooks/{webhookId}/send-test/", { params: { path: { inboxId, webhookId } } }),
  );

/** A page of the webhook's delivery records, newest first. */
export const listDeliveries = (inboxId: string, webhookId: string, query: QueryOf<typeof RECORDS>) =>
  unwrap(api.GET(RECORDS, { params: { path: { inboxId, webhookId }, query } }));

/** Sends a record's event again; answers the new attempt. */
export const redeliverRecord = (inboxId: string, webhookId: string, recordId: string) =>
  unwrap(
    api.POST("/api/v1/inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/redeliver/", {
      params: { path: { inboxId, webhookId, recordId } },
    }),
  );

/** Queues every failed event of the webhook again; answers how many. */
export const redeliverFailed = (inboxId: string, webhookId: string) =>
  unwrap(
    api.POST("/api/v1/inboxes/{inboxId}/webhooks/{webhookId}/redeliver-failed/", {
      params: { path: { inboxId, webhookId } },
      body: {},
    }),
  );
