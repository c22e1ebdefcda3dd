import type { PageProps } from "../types";
import { AssistantDetail } from "./detail-view";
import { AssistantList } from "./list-view";

/** `/assistants`: the list; `/assistants/<id>`: one assistant, with its try-it panel. */
export default function AssistantsPage({ params, organizationId }: PageProps) {
  return params.rest ? <AssistantDetail id={params.rest} organizationId={organizationId} /> : <AssistantList />;
}
