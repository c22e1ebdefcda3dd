import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { models } from "../../../src/db/schema";
import { rerankerFor } from "../../../src/services/knowledge/rerankers";
import { localReranker } from "../../../src/services/knowledge/rerankers/local";
import { db } from "../../harness";

/** Document indexes, best first (ties keep the given order). */
const ranking = (scores: number[]) =>
  scores
    .map((s, i) => [s, i])
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .map(([, i]) => i);

describe("local reranker", () => {
  it("is the reranker of the built-in local reranker record", async () => {
    const [row] = await db().select().from(models).where(eq(models.id, "00000000-0000-7000-8000-000000000003"));
    expect(await rerankerFor(env, row)).toBe(localReranker);
  });

  it("scores every document in 0..1, in the documents' order, deterministically", async () => {
    const docs = ["Refunds take 14 days.", "Shipping is free.", "", "refund refund refund policy policy"];
    const scores = await localReranker.rerank("refund policy", docs);
    expect(scores).toHaveLength(4);
    expect(scores.every((s) => s >= 0 && s <= 1)).toBe(true);
    expect(scores[1]).toBe(0);
    expect(scores[2]).toBe(0);
    expect(await localReranker.rerank("refund policy", docs)).toEqual(scores);
    expect(await localReranker.rerank("refund policy", [])).toEqual([]);
    expect(await localReranker.rerank("", docs)).toEqual([0, 0, 0, 0]);
  });

  it("lifts the document holding the rarer query terms above those that only share the common one", async () => {
    // As retrieval returns them: every candidate mentions "order", only one the damaged-item refund.
    const docs = [
      "Track your order from the order page; every order has a tracking number.",
      "You can change the delivery address of an order until it ships.",
      "Order history lists every order of the last two years.",
      "If an item arrives damaged, we refund it in full: send us a photo with your order number.",
      "Orders over 50 euros ship free.",
    ];
    const scores = await localReranker.rerank("refund for a damaged order", docs);
    expect(ranking(scores)[0]).toBe(3);
    expect(scores[3]).toBeGreaterThan(0.5);
    expect(Math.max(...scores.filter((_, i) => i !== 3))).toBeLessThan(scores[3] - 0.2);
  });

  it("prefers the query's words side by side, as a phrase, over the same words scattered", async () => {
    const docs = [
      "The account page shows the reset link; a password manager can fill it.",
      "To reset your password, open the account page.",
    ];
    const [scattered, phrase] = await localReranker.rerank("reset password", docs);
    expect(phrase).toBeGreaterThan(scattered);
  });

  it("matches morphological variants ('refunds' for 'refunded')", async () => {
    const [variant, other] = await localReranker.rerank("refunds", [
      "Your payment is refunded within a week.",
      "Your payment is captured at shipping.",
    ]);
    expect(variant).toBeGreaterThan(other);
  });

  it("ranks Chinese by shared characters and character pairs", async () => {
    const docs = [
      "政府发布了新的交通政策。",
      "收到商品后七天内可以申请退货，退货政策见下文。",
      "退出登录后请重新输入密码。",
    ];
    const scores = await localReranker.rerank("退货政策", docs);
    expect(ranking(scores)[0]).toBe(1);
    expect(scores[1]).toBeGreaterThan(scores[0] + 0.2);
  });

  it("ranks Korean as the keyword index finds it: 환불 meets 환불은 (with its particle), as in the index", async () => {
    const docs = [
      "배송은 서울 창고에서 출발합니다. 택배는 다음 영업일에 도착합니다.",
      "환불은 구매 후 30일 이내에 가능합니다. 환불금은 원래 카드로 돌려드립니다.",
    ];
    const scores = await localReranker.rerank("환불 기간", docs);
    expect(ranking(scores)[0]).toBe(1);
    // Above 0: the default similarityCutoff (0) drops what scores 0.
    expect(scores[1]).toBeGreaterThan(0.2);
    expect(scores[0]).toBe(0);
  });

  it("ignores Chinese question words: sharing 怎么 with the question does not outrank the answer", async () => {
    const docs = ["怎么都行，怎么选都可以，怎么说呢。", "注册账号：打开应用，点击注册，填写手机号。"];
    const scores = await localReranker.rerank("怎么注册账号", docs);
    expect(ranking(scores)[0]).toBe(1);
    expect(scores[0]).toBe(0);
  });

  it("weighs a term the question repeats as often as it says it (query term frequency)", async () => {
    const docs = ["Journals and their articles", "How authors choose titles"];
    const [journal, titles] = await localReranker.rerank(
      "Titles of articles: how are titles chosen, and are titles descriptive?",
      docs,
    );
    expect(titles).toBeGreaterThan(journal);
  });
});
