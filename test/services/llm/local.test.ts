import { describe, expect, it } from "vitest";
import { complete } from "../../../src/services/llm";
import { extract, instanceOf, localChatModel } from "../../../src/services/llm/local";
import type { ChatEvent, ChatRequest } from "../../../src/services/llm/types";

const passages = [
  { index: 1, text: "Our shop is in Taipei. We sell bicycles and parts." },
  { index: 2, text: "Opening hours are 9 am to 6 pm on weekdays. On Sundays we stay closed." },
];

async function events(request: ChatRequest): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const e of localChatModel.stream(request)) out.push(e);
  return out;
}

describe("local chat model", () => {
  it("is deterministic and streams word by word, then reports usage", async () => {
    const request: ChatRequest = { messages: [{ role: "user", content: "What are the opening hours?" }], passages };
    const first = await events(request);
    expect(await events(request)).toEqual(first);
    const deltas = first.filter((e) => e.type === "delta");
    expect(deltas.length).toBeGreaterThan(5);
    expect(first.at(-1)).toMatchObject({
      type: "usage",
      usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) },
    });
    const { content, usage, toolCalls } = await complete(localChatModel, request);
    expect(content).toBe(deltas.map((d) => (d.type === "delta" ? d.text : "")).join(""));
    expect(usage!.totalTokens).toBe(usage!.promptTokens + usage!.completionTokens);
    expect(toolCalls).toEqual([]);
  });

  it("extract picks the sentence that answers the question", () => {
    expect(extract("What are the opening hours?", passages)).toBe("Opening hours are 9 am to 6 pm on weekdays.");
    // A yes/no question the sentence answers in full gets its "Yes" (docs/decisions.md, "The built-in model's answer
    // composition").
    expect(extract("Do you sell bicycles?", passages)).toBe("Yes, we sell bicycles and parts.");
    expect(extract("營業時間", [{ index: 1, text: "我們的營業時間是早上九點到晚上六點。週日公休。" }])).toBe(
      "我們的營業時間是早上九點到晚上六點。",
    );
  });

  it("extract answers with an FAQ's answer field, and never with a sentence that restates the question", () => {
    const faq = {
      index: 1,
      text: "What are your opening hours?\nOur shop opens at 9 am.",
      title: "What are your opening hours?",
      faq: { question: "What are your opening hours?", answer: "Our shop opens at 9 am." },
    };
    expect(extract("What are your opening hours?", [faq, ...passages.map((p) => ({ ...p, index: p.index + 1 }))])).toBe(
      "Our shop opens at 9 am.",
    );
    // A help text's title and its question come first; what follows them answers.
    const article = {
      index: 1,
      text:
        "Payment methods we accept\n\nWhich payment methods do you accept? We take Visa and Mastercard. Cash is " +
        "not accepted.",
    };
    const payment = extract("What payment methods do you accept?", [article]);
    expect(payment).toMatch(/^We take Visa and Mastercard\./);
    expect(payment).not.toMatch(/payment methods/i);
    expect(
      extract("请问支持哪些支付方式？", [
        { index: 1, text: "支持哪些支付方式\n\n可以使用支付宝和微信支付付款。暂不支持货到付款。" },
      ]),
    ).toMatch(/^可以使用支付宝和微信支付付款。/);
    // Abbreviations, versions and list numbers stay inside their sentence.
    expect(
      extract("phone support hours", [
        { index: 1, text: "Phone support is available from 9 a.m. to 6 p.m. on weekdays. Chat is open every day." },
      ]),
    ).toBe("Phone support is available from 9 a.m. to 6 p.m. on weekdays.");
  });

  it("answers from the turn's documents when the retrieved passages do not touch the question", async () => {
    const faq = {
      index: 1,
      text: "What are your opening hours?\nOur shop opens at 9 am.",
      faq: { question: "What are your opening hours?", answer: "Our shop opens at 9 am." },
    };
    const attachments = [
      {
        kind: "document" as const,
        filename: "notes.txt",
        contentType: "text/plain",
        text: "Order 42 ships on Monday by courier.",
      },
    ];
    const { content } = await complete(localChatModel, {
      messages: [{ role: "user", content: "Please check my notes" }],
      passages: [faq],
      attachments,
    });
    expect(content).toBe("I received your attachments: notes.txt (document). Order 42 ships on Monday by courier.");
    const hours = await complete(localChatModel, {
      messages: [{ role: "user", content: "When do you open?" }],
      passages: [faq],
      attachments,
    });
    expect(hours.content).toBe("I received your attachments: notes.txt (document). Our shop opens at 9 am.");
  });

  it("without passages it says so, or echoes without instructions; small talk gets a polite reply", async () => {
    expect(
      (await complete(localChatModel, { messages: [{ role: "user", content: "Where is my parcel?" }] })).content,
    ).toBe('You said: "Where is my parcel?".');
    const withSystem = await complete(localChatModel, {
      messages: [
        { role: "system", content: "Be kind." },
        { role: "user", content: "Where is my parcel?" },
      ],
    });
    expect(withSystem.content).toBe("I don't know the answer to that from my sources.");
    const reply = async (content: string, system = "Be kind.") =>
      (
        await complete(localChatModel, {
          messages: [
            { role: "system", content: system },
            { role: "user", content },
          ],
        })
      ).content;
    expect(await reply("Hello!")).toBe("Hello! How can I help you today?");
    expect(await reply("hi there", "")).toBe("Hello! How can I help you today?");
    expect(await reply("Thank you so much!")).toBe("You're welcome! Is there anything else I can help you with?");
    expect(await reply("Bye")).toBe("Goodbye, and have a nice day!");
    expect(await reply("How are you?")).toBe("I'm doing well, thank you for asking! How can I help you today?");
    expect(await reply("谢谢！")).toBe("不客气！还有什么可以帮您的吗？");
    // Small talk is answered even when passages were retrieved for it.
    expect(
      (await complete(localChatModel, { messages: [{ role: "user", content: "Thanks" }], passages })).content,
    ).toBe("You're welcome! Is there anything else I can help you with?");
  });

  it("instanceOf builds a value valid for the schema, with the answer in the first string", () => {
    const schema = {
      type: "object",
      properties: {
        answer: { type: "string" },
        note: { type: "string" },
        score: { type: "integer", minimum: 1 },
        ok: { type: "boolean" },
        tags: { type: "array", items: { type: "string" }, minItems: 1 },
        level: { enum: ["low", "high"] },
        fixed: { const: 42 },
        nothing: { type: "null" },
        nested: { type: "object", properties: { n: { type: "number" } } },
      },
    };
    expect(instanceOf(schema, "The answer.")).toEqual({
      answer: "The answer.",
      note: "",
      score: 1,
      ok: false,
      tags: [""],
      level: "low",
      fixed: 42,
      nothing: null,
      nested: { n: 0 },
    });
  });

  it("answers JSON for a jsonSchema request and ignores tools", async () => {
    const { content, toolCalls } = await complete(localChatModel, {
      messages: [{ role: "user", content: "What are the opening hours?" }],
      passages,
      jsonSchema: { type: "object", properties: { answer: { type: "string" } } },
      tools: [{ type: "function", function: { name: "get_weather" } }],
    });
    expect(JSON.parse(content)).toEqual({ answer: "Opening hours are 9 am to 6 pm on weekdays." });
    expect(toolCalls).toEqual([]);
  });
});
