import { ms } from "../../lib/time";
import type { ConversationRow, ConversationView } from "../conversations";
import { parseLabels, type LabelRef } from "../labels";
import { csatRecord, type CsatRecord } from "../conversation/csat";

export interface ConversationRecord {
  id: string;
  contact: { id: string; name: string; avatar: string | null } | null;
  inbox: { id: string; name: string; channelType: string };
  chatbot: { id: string; name: string } | null;
  title: string;
  type: ConversationRow["type"];
  status: ConversationRow["status"];
  progressStatus: ConversationRow["progressStatus"];
  autoReplyEnabled: boolean;
  assignee: { id: string; name: string } | null;
  labels: LabelRef[];
  team: { id: string; name: string } | null;
  waitingSince: string | null;
  lastMessage: string | null;
  lastMessageCreatedAt: string | null;
  isTest: boolean;
  /** The visitor's messages no agent has read yet. */
  unreadCount: number;
  createdAt: string;
  csat: CsatRecord | null;
}

export const conversationRecord = (v: ConversationView): ConversationRecord => ({
  id: v.conversation.id,
  contact: v.contact?.id ? { id: v.contact.id, name: v.contact.name, avatar: v.contact.avatar } : null,
  inbox: { id: v.inbox.id, name: v.inbox.name, channelType: v.inbox.channelType },
  chatbot: v.chatbot?.id ? { id: v.chatbot.id, name: v.chatbot.name } : null,
  title: v.conversation.title,
  type: v.conversation.type,
  status: v.conversation.status,
  progressStatus: v.conversation.progressStatus,
  autoReplyEnabled: v.conversation.autoReplyEnabled,
  assignee: v.assignee?.id ? { id: v.assignee.id, name: v.assignee.name } : null,
  labels: parseLabels(v.labels),
  team: v.team?.id ? { id: v.team.id, name: v.team.name } : null,
  waitingSince: ms(v.conversation.waitingSince),
  lastMessage: v.conversation.lastMessage,
  lastMessageCreatedAt: ms(v.conversation.lastMessageAt),
  isTest: v.conversation.isTest,
  unreadCount: v.conversation.unreadCount,
  createdAt: ms(v.conversation.createdAt)!,
  csat: csatRecord(v.conversation),
});
