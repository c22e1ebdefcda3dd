import { InboxCreateDialog } from "../../components";
import { t } from "./strings";

/**
 * A new web chat: a web inbox is created with its assistant, and the API creates the inbox's web
 * chat in the same write; the designer opens on it.
 */
export function CreateDialog({ onClose }: { onClose: () => void }) {
  return (
    <InboxCreateDialog
      id="web-chat-new"
      strings={t}
      channelType={() => "web"}
      next={(inbox) => (inbox.channel ? `/web-chats/${inbox.channel.id}` : null)}
      onClose={onClose}
    />
  );
}
