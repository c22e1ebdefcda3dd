import type { ChannelPlatform } from "./types";

export interface CredentialField {
  name: string;
  /** Sealed at rest and masked on read. */
  secret: boolean;
  /** Not needed to connect: e-mail's sender name (empty: the name of the reply's sender). */
  optional?: boolean;
  /** Words (a sender name), not an id, token or address: spaces and quotes are part of it. */
  words?: boolean;
}

const field = (name: string, secret = false): CredentialField => ({ name, secret });

/** Each platform's credentials (CONTRACT section 17), required to connect unless `optional`. */
export const CHANNEL_FIELDS: Record<ChannelPlatform, CredentialField[]> = {
  line: [field("channelId"), field("channelSecret", true), field("channelAccessToken", true)],
  telegram: [field("botToken", true)],
  messenger: [field("pageId"), field("pageAccessToken", true), field("appSecret", true)],
  instagram: [field("instagramAccountId"), field("pageAccessToken", true), field("appSecret", true)],
  whatsapp: [field("phoneNumberId"), field("businessAccountId"), field("accessToken", true), field("appSecret", true)],
  slack: [field("botToken", true), field("signingSecret", true)],
  email: [field("address"), { name: "fromName", secret: false, optional: true, words: true }],
};
