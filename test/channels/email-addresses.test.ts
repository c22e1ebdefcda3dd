// Internationalised addresses through the Worker's email handler, the channel queue and the EMAIL binding: a domain
// that is not ASCII (`j@müller.example`, headers in UTF-8 as RFC 6532 has them) is the contact's in its ASCII form
// and answered there; a local part that is not ASCII (`jörg@example.com`), which Cloudflare's e-mail cannot send to,
// is kept and its reply failed saying why (docs/decisions.md, "Messaging channels", E-mail).
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { seedOwner, unique } from "../harness";
import { bodyOf } from "../support/api";
import { deliver, emailInbox, plain, replies, sentTo } from "./email-support";
import { channelInbox, conversationsOf, eventually, messagesWhen, onlyConversation } from "./support";

describe("e-mail: internationalised addresses", () => {
  it("a domain that is not ASCII: the contact is its ASCII form, answered there with its headers encoded", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const local = unique("j").toLowerCase();
    const ascii = `${local}@xn--mller-kva.example`;
    // Forwarded on to us with SRS (a forwarder's envelope sender): not the person to answer.
    const envelope = `srs0=hh=ab=müller.example=${local}@forwarder.example`;
    const mail = (from: string, subject: string) =>
      plain(local, address, subject, ["Is the blue teapot in stock?"]).replace(
        `From: Visitor <${local}>`,
        `From: Jörg Müller <${from}>`,
      );
    expect(await deliver(mail(`${local}@MÜLLER.example`, "Teapot"), envelope, address)).toEqual({ rejected: null });

    const [sent] = await replies(ascii, 1);
    expect(sent).toMatchObject({ from: address, to: ascii });
    // Every header line ASCII: the name in RFC 2047 words, the address in its ASCII form.
    expect(sent.raw.split("\r\n\r\n")[0]).toMatch(/^[\x20-\x7e\r\n]*$/);
    expect((await PostalMime.parse(sent.raw)).to).toEqual([{ address: ascii, name: "Jörg Müller" }]);
    expect(await sentTo(envelope)).toEqual([]);
    const conversation = await onlyConversation(owner, inboxId);
    const contact = await bodyOf<"GET /contacts/{id}/">(
      await owner.fetch("GET", `/contacts/${conversation.contact!.id}/`),
    );
    expect(contact).toMatchObject({ sourceId: ascii, email: ascii, name: "Jörg Müller" });

    // The same person writing their domain in its other form is the same contact.
    expect(await deliver(mail(ascii, "Saucers"), ascii, address)).toEqual({ rejected: null });
    await replies(ascii, 2);
    const both = await eventually(async () => {
      const conversations = await conversationsOf(owner, inboxId);
      return conversations.length === 2 && conversations;
    });
    expect(both.map((c) => c.contact?.id)).toEqual([contact.id, contact.id]);
  });

  it(
    "an inbox's own address entered with a domain not in ASCII is kept in its ASCII form: mail to it is answered " +
      "from it; one with no domain, or one Cloudflare cannot send from, is refused at its field",
    async () => {
      const owner = await seedOwner();
      const local = unique("Support");
      const { inboxId } = await channelInbox(owner, "email", { address: ` ${local}@Müller.example ` });
      const address = `${local}@xn--mller-kva.example`;
      const channel = await bodyOf<"GET /inboxes/{id}/channel/">(
        await owner.fetch("GET", `/inboxes/${inboxId}/channel/`),
      );
      expect(channel).toMatchObject({ status: "connected", credentials: { address } });

      const visitor = unique("ana").toLowerCase() + "@example.com";
      const to = address.toLowerCase();
      expect(await deliver(plain(visitor, to, "Teapot", ["Is it in stock?"]), visitor, to)).toEqual({ rejected: null });
      const [sent] = await replies(visitor, 1);
      expect(sent.from).toBe(address);
      expect((await onlyConversation(owner, inboxId)).contact).toBeTruthy();

      const refused = await owner.fetch("PUT", `/inboxes/${inboxId}/channel/`, { address: "support@müller" });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ errors: { address: [expect.stringContaining("e-mail address")] } });
      const unsendable = await owner.fetch("PUT", `/inboxes/${inboxId}/channel/`, { address: "jörg@shop.example" });
      expect(unsendable.status).toBe(400);
      expect(await unsendable.json()).toMatchObject({
        errors: { address: [expect.stringContaining("must be ASCII")] },
      });
      expect(
        (await bodyOf<"GET /inboxes/{id}/channel/">(await owner.fetch("GET", `/inboxes/${inboxId}/channel/`)))
          .credentials,
      ).toMatchObject({ address });
    },
  );

  it("a local part that is not ASCII: the message kept, its reply failed saying why, nothing sent", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = `${unique("jörg")}@example.com`.toLowerCase();
    expect(await deliver(plain(visitor, address, "Teapot", ["Is it in stock?"]), visitor, address)).toEqual({
      rejected: null,
    });
    const conversation = await onlyConversation(owner, inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => !!m[1]?.metadata?.channelDelivery?.error);
    expect(messages[0].content).toBe("Is it in stock?");
    expect(messages[1].metadata!.channelDelivery).toMatchObject({
      status: "failed",
      attempts: 1,
      error:
        `Email Service cannot send to ${visitor}: the part before the @ is not ASCII, and Cloudflare's e-mail does ` +
        "not carry internationalised addresses (SMTPUTF8, RFC 6531); answer from another mailbox",
    });
    const contact = await bodyOf<"GET /contacts/{id}/">(
      await owner.fetch("GET", `/contacts/${conversation.contact!.id}/`),
    );
    expect(contact).toMatchObject({ sourceId: visitor, email: visitor });
    expect(await sentTo(visitor)).toEqual([]);
  });
});
