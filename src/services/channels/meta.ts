// Meta's three messaging apps (CONTRACT section 17): Messenger and Instagram share the Messenger
// Platform's webhook and Send API, WhatsApp has the Cloud API; all three are Graph API calls, their
// webhooks signed with X-Hub-Signature-256 and subscribed with the GET handshake (meta/graph.ts).
export { messenger } from "./meta/messenger";
export { instagram } from "./meta/instagram";
export { whatsapp } from "./meta/whatsapp";
