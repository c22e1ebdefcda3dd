// The platforms' checks of the webhook URL, made by their stand-ins as the platforms document them (Meta's GET with
// `hub.*` when the Callback URL is saved, Slack's signed `url_verification` when the Request URL is): answered, and
// what came of them kept on the channel, so the operator sees "verified at" or why it was refused
// (docs/decisions.md, "Messaging channels").
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedOwner } from "../harness";
import { expectNotFound } from "../support/refusals";
import { bodyOf } from "../support/api";
import { graph, META_ACCOUNTS, metaInbox } from "./meta-support";
import { slack, slackInbox, SIGNING_SECRET } from "./slack-support";
import { channelInbox, post, sendVerification, storedEvents } from "./support";
import type { Actor } from "../harness";

const channelOf = async (actor: Actor, inboxId: string) =>
  bodyOf<"GET /inboxes/{id}/channel/">(await actor.fetch("GET", `/inboxes/${inboxId}/channel/`));

/** The channel's row but for what a verification writes: what a refused one must leave as it was. */
const restOfRow = async (inboxId: string) => {
  const row = await env.DB.prepare("select * from inbox_channels where inbox_id = ?")
    .bind(inboxId)
    .first<Record<string, unknown>>();
  const { webhook_verified_at, webhook_refused_at, webhook_refusal, ...rest } = row!;
  return rest;
};

/** A time of the record (ms as a string) within [from, now]. */
const between = (from: number) =>
  expect.toSatisfy((at: unknown) => typeof at === "string" && Number(at) >= from && Number(at) <= Date.now());

describe("Meta's check of the Callback URL", () => {
  it("echoes hub.challenge for the verify token and records when Meta verified the webhook", async () => {
    const { owner, inbox } = await metaInbox(META_ACCOUNTS.messenger);
    const before = await channelOf(owner, inbox.inboxId);
    expect(before).toMatchObject({ webhookVerifiedAt: null, webhookRefusal: null });
    const from = Date.now();
    const check = await graph.verification({ verifyToken: before.verifyToken });
    expect(check).toMatchObject({
      method: "GET",
      query: expect.stringMatching(/^hub\.mode=subscribe&hub\.challenge=\d+&/),
    });
    const answer = await sendVerification(inbox.path, check);
    expect([answer.status, await answer.text()]).toEqual([200, check.challenge]);
    expect(await channelOf(owner, inbox.inboxId)).toMatchObject({
      webhookVerifiedAt: between(from),
      webhookRefusal: null,
      status: "connected",
      lastEventAt: null,
    });
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(0);
  });

  it("a wrong verify token: 403, recorded with its reason, nothing else written; a right one clears it", async () => {
    const { owner, inbox } = await metaInbox(META_ACCOUNTS.whatsapp);
    const { verifyToken } = await channelOf(owner, inbox.inboxId);
    const row = await restOfRow(inbox.inboxId);
    const from = Date.now();
    const refused = await sendVerification(inbox.path, await graph.verification({ verifyToken: "meatyhamhock" }));
    expect(refused.status).toBe(403);
    const seen = await channelOf(owner, inbox.inboxId);
    expect(seen).toMatchObject({
      webhookVerifiedAt: null,
      webhookRefusal: {
        at: between(from),
        reason: "wrong_verify_token",
        detail: expect.stringContaining("verify token"),
      },
    });
    expect(seen.webhookRefusal!.detail).not.toContain(verifyToken!);
    expect(await restOfRow(inbox.inboxId)).toEqual(row);
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(0);
    // Another at once (anyone may send them): not written again, the first one's time kept.
    await new Promise((r) => setTimeout(r, 5));
    expect((await sendVerification(inbox.path, await graph.verification({ verifyToken: "guess" }))).status).toBe(403);
    expect((await channelOf(owner, inbox.inboxId)).webhookRefusal).toEqual(seen.webhookRefusal);

    // Pasted again, right: verified, and the refusal is behind it.
    expect((await sendVerification(inbox.path, await graph.verification({ verifyToken }))).status).toBe(200);
    const verified = await channelOf(owner, inbox.inboxId);
    expect(verified).toMatchObject({ webhookVerifiedAt: between(from), webhookRefusal: null });
    // Wrong again at once (someone changed it in the dashboard): seen again, the verification kept.
    expect((await sendVerification(inbox.path, await graph.verification({ verifyToken: "x" }))).status).toBe(403);
    expect(await channelOf(owner, inbox.inboxId)).toMatchObject({
      webhookVerifiedAt: verified.webhookVerifiedAt,
      webhookRefusal: { reason: "wrong_verify_token" },
    });
  });

  it("a GET that is not Meta's check (the URL opened in a browser) is refused and not recorded", async () => {
    const { owner, inbox } = await metaInbox(META_ACCOUNTS.instagram);
    expect((await post(inbox.path, { headers: {}, body: "" }, "GET")).status).toBeGreaterThanOrEqual(400);
    expect(await channelOf(owner, inbox.inboxId)).toMatchObject({ webhookVerifiedAt: null, webhookRefusal: null });
  });
});

describe("Slack's url_verification", () => {
  it("signed with the signing secret: the challenge is answered and the verification recorded", async () => {
    const { owner, inbox } = await slackInbox();
    const from = Date.now();
    const check = await slack.verification({ signingSecret: SIGNING_SECRET });
    expect(check.headers["x-slack-signature"]).toMatch(/^v0=[0-9a-f]{64}$/);
    const answer = await sendVerification(inbox.path, check);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ challenge: check.challenge });
    expect(await channelOf(owner, inbox.inboxId)).toMatchObject({
      webhookVerifiedAt: between(from),
      webhookRefusal: null,
    });
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(0);
  });

  it("signed with another secret: 401, the refusal recorded with its reason, nothing else written", async () => {
    const { owner, inbox } = await slackInbox();
    const row = await restOfRow(inbox.inboxId);
    const from = Date.now();
    const refused = await sendVerification(
      inbox.path,
      await slack.verification({ signingSecret: "not-the-signing-secret" }),
    );
    expect(refused.status).toBe(401);
    expect(await channelOf(owner, inbox.inboxId)).toMatchObject({
      webhookVerifiedAt: null,
      webhookRefusal: { at: between(from), reason: "bad_signature", detail: expect.stringContaining("Signing Secret") },
    });
    expect(await restOfRow(inbox.inboxId)).toEqual(row);
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(0);
  });
});

describe("who sees it", () => {
  it("another organization's key finds no such channel; a platform that verifies nothing shows null", async () => {
    const { owner, inbox } = await slackInbox();
    await sendVerification(inbox.path, await slack.verification({ signingSecret: SIGNING_SECRET }));
    expect((await channelOf(owner, inbox.inboxId)).webhookVerifiedAt).not.toBeNull();
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("GET", `/inboxes/${inbox.inboxId}/channel/`));

    const telegram = await channelInbox(stranger, "telegram", { botToken: "7:verified-nothing" }, { connect: false });
    expect(await channelOf(stranger, telegram.inboxId)).toMatchObject({
      webhookVerifiedAt: null,
      webhookRefusal: null,
    });
  });
});
