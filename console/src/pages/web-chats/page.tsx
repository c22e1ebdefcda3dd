import type { PageProps } from "../types";
import { Designer } from "./designer";
import { WebChatList } from "./list";

/** `/web-chats`: the list; `/web-chats/<id>`: the designer of one web chat. */
export default function WebChatsPage({ params }: PageProps) {
  return params.rest ? <Designer id={params.rest} /> : <WebChatList />;
}
