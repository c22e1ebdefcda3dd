import { ms } from "../../lib/time";
import type { InboxRow, InboxView } from "../inboxes";
import type { InboxAssignment } from "../../db/schema";
import { assignmentOf } from "../assignment/settings";

type IdName = { id: string; name: string };

export interface InboxRecord {
  id: string;
  name: string;
  channelType: InboxRow["channelType"];
  chatbot: IdName | null;
  channel: IdName | null;
  unreadConversationsCount: number;
  isDefault: boolean;
  businessHours: InboxRow["businessHours"];
  assignment: InboxAssignment;
  createdAt: string;
  updatedAt: string;
}

export const inboxRecord = ({ inbox, chatbot, channel, unreadConversationsCount }: InboxView): InboxRecord => ({
  id: inbox.id,
  name: inbox.name,
  channelType: inbox.channelType,
  chatbot,
  channel,
  unreadConversationsCount,
  isDefault: inbox.isDefault,
  businessHours: inbox.businessHours ?? null,
  assignment: assignmentOf(inbox.assignment),
  createdAt: ms(inbox.createdAt)!,
  updatedAt: ms(inbox.updatedAt)!,
});
