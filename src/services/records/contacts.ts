import { ms } from "../../lib/time";
import type { ContactView } from "../contacts";

type IdName = { id: string; name: string };
type Json = Record<string, unknown>;

export interface ContactTagRecord {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** The contact record; credentials are never returned, only whether they are stored. */
export interface ContactRecord {
  id: string;
  inboxes: IdName[];
  inbox: IdName | null;
  name: string;
  avatar: string | null;
  phoneNumber: string | null;
  email: string | null;
  sourceId: string | null;
  queryMetadata: Json | null;
  metadata: Json;
  preChatFieldIndex: Json;
  hasMcpCredentials: boolean;
  hasApiCredentials: boolean;
  contactConnectors: Json[];
  tags: ContactTagRecord[];
  createdAt: string;
  updatedAt: string;
}

export const contactRecord = ({ contact: c, inboxes, tags }: ContactView): ContactRecord => ({
  id: c.id,
  inboxes,
  inbox: inboxes[0] ?? null,
  name: c.name,
  avatar: c.avatar,
  phoneNumber: c.phoneNumber,
  email: c.email,
  sourceId: c.sourceId,
  queryMetadata: c.queryMetadata,
  metadata: c.metadata ?? {},
  preChatFieldIndex: c.preChatFieldIndex ?? {},
  hasMcpCredentials: !!c.mcpCredentialsSealed,
  hasApiCredentials: !!c.apiCredentialsSealed,
  contactConnectors: c.contactConnectors ?? [],
  tags: tags.map((t) => ({ id: t.id, name: t.name, createdAt: ms(t.createdAt)!, updatedAt: ms(t.updatedAt)! })),
  createdAt: ms(c.createdAt)!,
  updatedAt: ms(c.updatedAt)!,
});
