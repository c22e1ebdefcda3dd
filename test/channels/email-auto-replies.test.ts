// Auto-replies that carry no header saying so (no Auto-Submitted, X-Autoreply or Precedence), only their subject's
// prefix in the responder's language, through the Worker's email handler: set aside like the ones a header marks, never
// answered (two auto-responders would write to each other for ever), and a subject that only looks like one is a
// person asking (docs/decisions.md, "What a visitor sends is kept", E-mail).
import { describe, expect, it } from "vitest";
import { seedOwner } from "../harness";
import { deliver, emailInbox, plain, replies, sentTo, visitorAddress } from "./email-support";
import { conversationsOf, eventually, setAside } from "./support";

/** A new inbox's first mail, from a new visitor, with `subject`. */
async function firstMail(subject: string, body = "I am out of the office until Monday.") {
  const owner = await seedOwner();
  const { inboxId, address } = await emailInbox(owner);
  const visitor = visitorAddress();
  expect(await deliver(plain(visitor, address, subject, [body]), visitor, address)).toEqual({ rejected: null });
  return { owner, inboxId, visitor };
}

describe("e-mail: an auto-reply known by its subject alone", () => {
  it.each([
    "Automatic reply: Re: Opening hours",
    "Auto: Re: Opening hours",
    "Out of Office: Re: Opening hours",
    "Autoreply",
    "Abwesenheitsnotiz: Re: Öffnungszeiten",
    "Réponse automatique : Re: Horaires",
    "Respuesta automática: Re: Horario",
    "Resposta automática: Re: Horário",
    "Risposta automatica: Re: Orari",
    "Automatisch antwoord: Re: Openingstijden",
    "自动回复: Re: 营业时间",
    "自動回覆: Re: 營業時間",
    "自動応答: Re: 営業時間",
    "자동 응답: Re: 영업 시간",
    "[Auto-Reply] Re: Opening hours",
  ])("%s: set aside as an auto-reply, not answered", async (subject) => {
    const { owner, inboxId, visitor } = await firstMail(subject);
    const [row] = await eventually(() => setAside(owner.organizationId, inboxId).then((r) => r.length > 0 && r));
    // The reason a header-marked auto-reply is set aside with: one path for both.
    expect(row.error).toBe(
      "An auto-reply, list mail or bounce: not answered, so that two robots never write to each other.",
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await conversationsOf(owner, inboxId)).toEqual([]);
    expect(await sentTo(visitor)).toEqual([]);
  });

  it.each([
    "Out of office hours: can I collect my order on Sunday?",
    "Autoreply settings: how do I turn them off?",
    "Auto insurance documents",
    // German and Dutch "car": Lotus Notes' "Auto:" only ever answers our mail, whose subject is "Re: ..." (below).
    "Auto: Reparaturtermin am Montag?",
  ])("%s: a person asking, answered", async (subject) => {
    const { owner, inboxId, visitor } = await firstMail(subject, "Can you help?");
    await replies(visitor, 1);
    expect(await setAside(owner.organizationId, inboxId)).toEqual([]);
  });
});
