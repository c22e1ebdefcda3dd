import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { models } from "../../../src/db/schema";
import { embeddingModelFor } from "../../../src/services/knowledge/embeddings";
import { localEmbeddingModel, stem, tokenize } from "../../../src/services/knowledge/embeddings/local";
import { termsOf } from "../../../src/services/knowledge/retrieval/terms";
import { db } from "../../harness";

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
const embedOne = async (text: string) => (await localEmbeddingModel.embed([text]))[0];
/** Index of the passage most similar to the query. */
const nearest = async (query: string, passages: string[]) => {
  const [q, ...vectors] = await localEmbeddingModel.embed([query, ...passages], "document");
  const scores = vectors.map((v) => dot(q, v));
  return scores.indexOf(Math.max(...scores));
};

describe("local embedding model", () => {
  it("is the model of the built-in local embedding record, 256 dimensions as migration 0006 says", async () => {
    const [row] = await db().select().from(models).where(eq(models.id, "00000000-0000-7000-8000-000000000002"));
    expect(await embeddingModelFor(env, row)).toBe(localEmbeddingModel);
    expect(row.dimensions).toBe(256);
    expect(localEmbeddingModel.dimensions).toBe(256);
  });

  it("returns deterministic unit vectors of 256 dimensions, one per text, queries and documents alike", async () => {
    const texts = ["Refunds are issued within 14 days.", "退货政策", "", "a"];
    const first = await localEmbeddingModel.embed(texts, "document");
    expect(await localEmbeddingModel.embed(texts, "query")).toEqual(first);
    expect(first).toHaveLength(4);
    for (const v of first) {
      expect(v).toHaveLength(256);
      expect(Math.hypot(...v)).toBeCloseTo(1, 9);
    }
  });

  it("stems plurals, -ing and -ed so that variants meet", () => {
    expect(new Set(["refund", "refunds", "refunded", "refunding"].map(stem))).toEqual(new Set(["refund"]));
    expect(new Set(["charge", "charges", "charged", "charging"].map(stem)).size).toBe(1);
    expect(new Set(["policy", "policies"].map(stem)).size).toBe(1);
    expect(new Set(["ship", "shipped", "shipping"].map(stem)).size).toBe(1);
  });

  it("puts 'refund policy' closer to a passage about refunds than to an unrelated one", async () => {
    const q = await embedOne("refund policy");
    const refunds = await embedOne("Refunds are issued within 14 days of a return, as our policies describe.");
    const unrelated = await embedOne("Our office opens at nine on weekdays and parking is free for visitors.");
    expect(dot(q, refunds)).toBeGreaterThan(0.3);
    expect(dot(q, refunds)).toBeGreaterThan(dot(q, unrelated) + 0.25);
  });

  it("matches morphological variants and partial words that exact keywords miss", async () => {
    const passages = [
      "The battery is charged by USB-C in two hours.",
      "The warranty covers the screen for a year.",
      "Delivery takes three days.",
      "You can cancel your subscription at any time.",
    ];
    expect(await nearest("charging", passages)).toBe(0);
    expect(await nearest("batteries", passages)).toBe(0);
    expect(await nearest("deliveries", passages)).toBe(2);
    // No word in common, only 3-grams: partial words and a typo.
    expect(await nearest("warrant", passages)).toBe(1);
    expect(await nearest("waranty", passages)).toBe(1);
    expect(await nearest("deliver", passages)).toBe(2);
    expect(await nearest("subscript", passages)).toBe(3);
  });

  it("puts '退货政策' closest to a Chinese passage about 退货", async () => {
    const passages = [
      "我们的办公室周一至周五上午九点开门，周末休息。",
      "收到商品后七天内可以申请退货，退货时请保留原包装。",
      "会员积分可以在下次购物时抵扣现金。",
    ];
    expect(await nearest("退货政策", passages)).toBe(1);
    const q = await embedOne("退货政策");
    const [office, returns] = await localEmbeddingModel.embed(passages.slice(0, 2));
    expect(dot(q, returns)).toBeGreaterThan(dot(q, office) + 0.15);
  });

  it("takes as CJK exactly what the keyword index does: kana, ideographs and Hangul; Jamo are letters in both", () => {
    const samples: [text: string, cjk: boolean][] = [
      ["ひらがな", true],
      ["カタカナ", true],
      ["ｶﾀｶﾅ", true], // half-width, folded by NFKC
      ["退货", true],
      ["\u3400\u3401", true], // extension A
      ["\uf900\uf901", true], // compatibility ideographs
      ["환불은", true],
      ["\u1100\u1100", false], // conjoining Jamo that make no syllable
      ["\u3131\u3131", false], // compatibility Jamo, folded by NFKC into conjoining Jamo
      ["refund", false],
    ];
    for (const [text, cjk] of samples) {
      expect(
        tokenize(text).map((t) => t.cjk),
        text,
      ).toEqual([cjk]);
      // The index gives a CJK run its characters and pairs, a word itself alone.
      expect(termsOf(text).length > 1, text).toBe(cjk);
    }
  });

  it("puts '환불 기간' closest to the Korean passage about 환불, though it writes 환불은 (with its particle)", async () => {
    const passages = [
      "배송은 서울 창고에서 출발합니다. 택배는 다음 영업일에 도착합니다.",
      "환불은 구매 후 30일 이내에 가능합니다. 환불금은 원래 카드로 돌려드립니다.",
    ];
    expect(await nearest("환불 기간", passages)).toBe(1);
    expect(await nearest("환불", passages)).toBe(1);
  });

  it("gives Chinese question words little weight: sharing only 怎么 with '怎么注册账号' is worth little", async () => {
    const q = await embedOne("怎么注册账号");
    const [noise, answer] = await localEmbeddingModel.embed([
      "怎么说呢，怎么都行，怎么选都可以。",
      "注册账号：打开应用，点击注册，填写手机号。",
    ]);
    expect(dot(q, noise)).toBeLessThan(0.1);
    expect(dot(q, answer)).toBeGreaterThan(dot(q, noise) + 0.3);
  });

  it("down-weights stopwords: sharing only 'the of and' is worth little", async () => {
    const q = await embedOne("the price of the subscription");
    const content = await embedOne("Subscription price: 10 euros a month.");
    const stopwords = await embedOne("The history of the city and the river.");
    expect(dot(q, content)).toBeGreaterThan(dot(q, stopwords) + 0.2);
  });
});
