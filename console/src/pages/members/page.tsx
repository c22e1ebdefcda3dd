import { useState } from "preact/hooks";
import { PageHeader } from "../../components";
import { can } from "../../shell/session";
import type { PageProps } from "../types";
import { GroupPage } from "./group-page";
import { GroupsSection } from "./groups-section";
import { MembersSection } from "./members-section";
import { t } from "./strings";

/** `/members`: members and groups; `/members/groups/<id>`: one group. */
export default function MembersPage({ params, organizationId }: PageProps) {
  const [version, setVersion] = useState(0);
  const group = /^groups\/([^/]+)$/.exec(params.rest ?? "");
  if (group) return <GroupPage organizationId={organizationId} id={group[1]} />;
  return (
    <>
      <PageHeader title={t("title")} />
      <MembersSection organizationId={organizationId} groupsChanged={() => setVersion((v) => v + 1)} />
      {/* The page needs member.view; the groups' list needs group.view, which not everyone who sees members has. */}
      {can("group.view") && <GroupsSection organizationId={organizationId} version={version} />}
    </>
  );
}
