// A message keeps its attachments' signed links as they were when it was stored, for a week (MESSAGE_URL_TTL_SECONDS,
// S3's longest). A transcript read later must still open them: docs/decisions.md, "Attachment links outlive the week".
import type { Bindings } from "../../env";
import type { MessageRecord } from "../records/messages";
import { MESSAGE_URL_TTL_SECONDS } from "./settings";
import { signedUntil } from "./signing";
import { keyOfFile, signedDownloadUrl } from "./urls";

/**
 * The messages with the signed links of our own objects signed again when less than half their week is left: a link
 * a reader gets opens for at least three and a half days, and reads in the first half of its week get it as stored.
 * Outside links (kept as references) and links to an object no longer ours are as stored.
 */
export async function withLiveLinks(
  env: Bindings,
  origin: string,
  messages: MessageRecord[],
  now = Date.now(),
): Promise<MessageRecord[]> {
  const renewBefore = now + (MESSAGE_URL_TTL_SECONDS * 1000) / 2;
  const renewed = async (a: MessageRecord["attachments"][number]) => {
    if (!a.id || typeof a.file !== "string" || !URL.canParse(a.file)) return a;
    const url = new URL(a.file);
    const lapses = signedUntil(url.searchParams);
    if (lapses === null || lapses > renewBefore) return a;
    // Our route on this origin or R2's endpoint; else our route on the origin the service had when it was stored.
    const bare = url.origin + url.pathname;
    const key = (await keyOfFile(env, origin, bare)) ?? (await keyOfFile(env, url.origin, bare));
    return key ? { ...a, file: await signedDownloadUrl(env, origin, key, MESSAGE_URL_TTL_SECONDS) } : a;
  };
  return Promise.all(
    messages.map(async (m) =>
      m.attachments.length ? { ...m, attachments: await Promise.all(m.attachments.map(renewed)) } : m,
    ),
  );
}
