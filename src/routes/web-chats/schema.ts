export const WEB_CHATS_TAG = "Web chats";

/** What the write endpoints say about images. */
export const IMAGE_NOTE =
  "`avatar` and `logo` take a URL, or the key of an image uploaded through `upload-presigned-url/` (modelName " +
  "`web-chat`, fieldName `avatar` or `logo`), " +
  "which is then served publicly under `/api/v1/files/public/` and its URL stored.";
