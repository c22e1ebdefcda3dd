// Messages D1 still holds on their way to their conversation's object (docs/decisions.md, "Messages in the
// conversation object"): a first turn the worker stored, or messages stored before the objects kept them. A read of
// the conversation takes them; the housekeeping cron takes those of conversations no one reads.
import { client } from "../../db/prepared";
import type { Bindings } from "../../env";
import { eachConversationObject } from "../conversations";
import { dataDbs } from "../shards";

/** How many conversations one run hands over at most. */
const PER_RUN = 1000;

/**
 * Asks the objects of up to `perRun` conversations with messages in D1 to take them over (copy, then delete them in
 * D1: Conversation.takeOver). Run once the search terms' backfill is done (it reads D1 `messages`). Returns how many
 * conversations were asked; an object that fails is logged and asked again by a later run.
 */
export async function takeOverHandedOver(env: Bindings, { perRun = PER_RUN } = {}): Promise<number> {
  let asked = 0;
  // Each database holding organizations' data planes in turn, up to `perRun` conversations in all.
  for (const data of dataDbs(env)) {
    if (asked >= perRun) break;
    const { results } = await client(data)
      .prepare("SELECT DISTINCT conversation_id AS id, organization_id AS org FROM messages LIMIT ?1")
      .bind(perRun - asked)
      .all<{ id: string; org: string }>();
    const organizationOf = new Map(results.map((r) => [r.id, r.org]));
    await eachConversationObject(
      env,
      [...organizationOf.keys()],
      (object, id) => object.takeOver(organizationOf.get(id)!, id),
      "messages not taken over",
    );
    asked += results.length;
  }
  return asked;
}
