import type { PageProps } from "../types";
import { ContactDetail } from "./detail";
import { ContactList } from "./list";

/** `/contacts`: the list; `/contacts/<id>`: one contact. */
export default function ContactsPage({ params, organizationId }: PageProps) {
  return params.rest ? (
    <ContactDetail id={params.rest} organizationId={organizationId} />
  ) : (
    <ContactList organizationId={organizationId} />
  );
}
