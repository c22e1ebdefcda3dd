import type { PageProps } from "../types";
import { ChannelPage } from "./channel";
import { ChannelList } from "./list";

/** `/channels`: the messaging inboxes; `/channels/<inboxId>`: one inbox's connection to its platform. */
export default function ChannelsPage({ params }: PageProps) {
  return params.rest ? <ChannelPage inboxId={params.rest} /> : <ChannelList />;
}
