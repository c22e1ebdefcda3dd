// An e-mail address as an inbox keeps, compares and answers it (docs/decisions.md, "Messaging channels", E-mail).

/**
 * A bare address (no name, no angle brackets) whose domain is a host name in ASCII: nothing in it can end or fold a
 * header line or name a second address, and neither it nor a thread's root has a space (`emailChat` joins them with
 * one). The local part may be UTF-8 (RFC 6532); the domain is checked in its ASCII form (`canonicalAddress`).
 */
const ADDRESS =
  /^[^\s@<>()[\]",;:\\]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
export const isAddress = (s: string) => ADDRESS.test(s);

/**
 * `value` in the one form an address is kept in (the contact's `sourceId`, the chat's key), compared in and sent to,
 * or undefined when it is no address: an internationalised domain (`j@müller.de`) in its ASCII form
 * (`j@xn--mller-kva.de`), which DNS and Email Service take, by the URL API's IDNA processing, so the same person
 * writing it either way is one contact; the local part in Unicode NFC (RFC 6532 3.1) and lower case, as the inbox's
 * address has always been compared.
 */
export const canonicalAddress = (value: string) => withAsciiDomain(value, (local) => local.toLowerCase());

/**
 * An inbox's own address as entered (`Support@Müller.de`): its domain in ASCII form as `canonicalAddress` has it,
 * which Email Routing and Email Sending take, its local part as written, which replies leave from; undefined when it
 * is no address.
 */
export const inboxAddressOf = (value: string) => withAsciiDomain(value, (local) => local);

function withAsciiDomain(value: string, local: (part: string) => string): string | undefined {
  const s = value.trim();
  const at = s.lastIndexOf("@");
  const domain = s.slice(at + 1);
  // Only a host name goes to the URL parser: with a "/", "?", "#", ":" or "%" in it, it would read a host out of
  // something else.
  if (at < 1 || !/^[^\s@<>()[\]",;:\\/?#%]+$/.test(domain) || !URL.canParse(`http://${domain}`)) return undefined;
  const address = `${local(s.slice(0, at).normalize("NFC"))}@${new URL(`http://${domain}`).hostname}`;
  return isAddress(address) ? address : undefined;
}

/**
 * Whether Email Service can send to `address`: its local part is ASCII. Cloudflare's e-mail takes internationalised
 * domains (in their ASCII form) but not internationalised local parts (SMTPUTF8, RFC 6531), and RFC 2047 cannot
 * encode an address, only the name beside it.
 */
export const canSendTo = (address: string) => /^[\x21-\x7e]+@/.test(address);

/** A mail server's own address (a bounce's or a report's sender): a machine, never a person to answer (a loop). */
export const isMachineAddress = (address: string) => /^(mailer-daemon|postmaster)@/i.test(address);
