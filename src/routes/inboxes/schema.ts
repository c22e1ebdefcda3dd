import { InboxSchema } from "../../services/records/inboxes";

export const INBOXES_TAG = "Inboxes";
export { InboxSchema };
