export const WEB_CHATS_TAG = "Web chats";
