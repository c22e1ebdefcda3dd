import { describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { createFaq, createKnowledgeBase, ingest } from "../fixtures/knowledge";
import { makeDocx, makePdf } from "../fixtures/documents";
import { readEvents, storedReply, type StreamEvent } from "../support/sse";
import { bodyOf } from "../support/api";
import { standIn } from "../support/bindings";

async function ask(owner: Actor, chatbotId: string, content: string, extra: Record<string, unknown> = {}) {
  const res = await owner.fetch("POST", `/chatbots/${chatbotId}/completions/`, { message: { content, ...extra } });
  expect(res.status, await res.clone().text()).toBe(200);
  return await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
}

/** A handbook PDF whose page 2 alone holds the warranty terms, and a docx about returns. */
async function handbook(owner: Actor) {
  const kb = await createKnowledgeBase(owner);
  const pdf = await makePdf([
    "Welcome to the Nimbus handbook. This guide covers setup and daily care of your Nimbus air purifier.",
    "The Nimbus warranty lasts five years from the date of purchase. Filters are not covered by the warranty.",
    "Cleaning: wipe the grille with a dry cloth once a month.",
  ]);
  const docx = await makeDocx([
    "Returns",
    "You may return an unused Nimbus within 30 days for a full refund.",
    "Return shipping is free within the Netherlands.",
  ]);
  const [pdfFile, docxFile] = await ingest(owner, kb.id, [
    { name: "nimbus-handbook.pdf", content: pdf, type: "application/pdf" },
    { name: "returns.docx", content: docx },
  ]);
  return { kb, pdfFile, docxFile };
}

describe("replies grounded in a knowledge base", () => {
  it("answers a question whose answer is only on page 2 of a PDF, citing that file and page", async () => {
    const owner = await seedOwner();
    const { kb, pdfFile } = await handbook(owner);
    const bot = await createChatbot(owner, {
      knowledgeBases: [{ id: kb.id }],
      instructions: "Answer from the handbook.",
    });
    expect(bot.knowledgeBases).toEqual([{ id: kb.id, name: kb.name }]);
    const reply = await ask(owner, bot.id, "How many years does the warranty last?");
    expect(reply.content).toContain("five years");
    expect(reply.message!.citations.map((c) => c.filename)).toContain("nimbus-handbook.pdf");
    expect(reply.message!.citations.find((c) => c.filename === "nimbus-handbook.pdf")!.id).toBe(pdfFile.id);
    const top = reply.message!.citationNodes[0];
    expect(top.node).toMatchObject({ pageStart: 2, knowledgeBaseFile: { filename: "nimbus-handbook.pdf" } });
    expect(top.displayScore).toBe(Math.round(top.score * 100));
  });

  it("answers from the docx too, and streams the same grounded answer", async () => {
    const owner = await seedOwner();
    const { kb } = await handbook(owner);
    const bot = await createChatbot(owner, { knowledgeBases: [{ id: kb.id }] });
    const reply = await ask(owner, bot.id, "Can I return it for a refund?");
    expect(reply.content).toContain("30 days");
    expect(reply.message!.citations.map((c) => c.filename)).toContain("returns.docx");
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "Can I return it for a refund?" },
      is_streaming: true,
    });
    const last = storedReply(await readEvents<StreamEvent>(res));
    expect(last.done).toBe(true);
    expect(last.message.content).toBe(reply.content);
  });

  it("in-line citations put [n] markers that match the citation nodes", async () => {
    const owner = await seedOwner();
    const { kb } = await handbook(owner);
    const bot = await createChatbot(owner, { knowledgeBases: [{ id: kb.id }], enableInLineCitations: true });
    const reply = await ask(owner, bot.id, "How long is the warranty?");
    const markers = [...reply.content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(markers.length).toBeGreaterThan(0);
    const warrantySentence = reply.content.split(/(?<=\])\s*/).find((s) => s.includes("five years"))!;
    const n = Number(/\[(\d+)\]/.exec(warrantySentence)![1]);
    expect(reply.message!.citationNodes[n - 1].node).toMatchObject({
      pageStart: 2,
      knowledgeBaseFile: { filename: "nimbus-handbook.pdf" },
    });
    for (const m of markers) expect(reply.message!.citationNodes[m - 1]).toBeTruthy();
    expect(reply.message!.citations.map((c) => c.filename)).toContain("nimbus-handbook.pdf");
  });

  it("template mode answers with the best passage; with nothing relevant it gives the unanswerable text", async () => {
    const owner = await seedOwner();
    const { kb } = await handbook(owner);
    const bot = await createChatbot(owner, {
      knowledgeBases: [{ id: kb.id }],
      replyMode: "template",
      template: "From the handbook: {{answer}}",
      unanswerableTemplate: "I cannot answer that from the handbook.",
    });
    const answered = await ask(owner, bot.id, "warranty years");
    expect(answered.content).toMatch(/^From the handbook: .*warranty/);
    const unanswerable = await ask(owner, bot.id, "Which football club won the league?");
    expect(unanswerable.content).toBe("I cannot answer that from the handbook.");
    expect(unanswerable.message!.citations).toEqual([]);
  });

  it("a cited file shows its status now: one being reparsed (its passages kept meanwhile) is not `done`", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const [file] = await ingest(owner, kb.id, [{ name: "warranty.txt", content: "The warranty lasts five years." }]);
    const bot = await createChatbot(owner, { knowledgeBases: [{ id: kb.id }] });
    const citedStatus = async () =>
      (await ask(owner, bot.id, "How long does the warranty last?")).message!.citations.find((c) => c.id === file.id)
        ?.status;
    expect(await citedStatus()).toBe("done");
    // The reparse's job is held, so the file stays queued with its old passages searchable.
    const held = { send: async () => {}, sendBatch: async () => {} };
    const res = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/batch-reparse/`, [{ id: file.id }], {
      settings: { INGESTION_QUEUE: standIn("INGESTION_QUEUE", held) },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await citedStatus()).toBe("initial");
  });

  it("FAQ hits count in hitsCount", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const faq = await createFaq(owner, kb.id, {
      question: "Do you ship to Belgium?",
      answer: "Yes, shipping to Belgium takes two days.",
    });
    const bot = await createChatbot(owner, { knowledgeBases: [{ id: kb.id }] });
    const reply = await ask(owner, bot.id, "Do you ship to Belgium?");
    expect(reply.content).toContain("two days");
    const after = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/faqs/{faqId}/">(
      await owner.fetch("GET", `/knowledge-bases/${kb.id}/faqs/${faq.id}/`),
    );
    expect(after.hitsCount).toBe(1);
  });
});
