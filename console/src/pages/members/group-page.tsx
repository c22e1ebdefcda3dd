import { useEffect, useState } from "preact/hooks";
import { Button, ErrorAlert, Loading, TextField, PageHeader, toast, useResource, useSubmit } from "../../components";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { GroupAssistants, GroupKnowledgeBases, GroupMembers } from "./group-parts";
import { PermissionMatrix } from "./matrix";
import { getGroup, permissionCatalogue, type Group, updateGroup } from "./api";
import { t } from "./strings";

/** One group: its name and permission matrix, its members, assistants and knowledge bases. */
export function GroupPage({ organizationId, id }: { organizationId: string; id: string }) {
  const loaded = useResource(
    () => Promise.all([getGroup(organizationId, id), permissionCatalogue()]),
    [organizationId, id],
  );
  const [group, setGroup] = useState<Group | null>(null);
  useEffect(() => setGroup(loaded.data?.[0] ?? null), [loaded.data]);
  const manage = can("group.manage");
  const back = (
    <a class="btn secondary" href={`${BASE}/members`} onClick={followLink}>
      {t("back")}
    </a>
  );
  if (!group || !loaded.data)
    return (
      <>
        <PageHeader title={t("title")}>{back}</PageHeader>
        <ErrorAlert error={loaded.error} />
        {loaded.loading && <Loading />}
      </>
    );
  const reload = () => loaded.reload();
  return (
    <>
      <PageHeader title={t("groupTitle", { name: group.name })}>{back}</PageHeader>
      <GroupForm
        key={group.updatedAt}
        organizationId={organizationId}
        group={group}
        catalogue={loaded.data[1]}
        manage={manage}
        onSaved={setGroup}
      />
      <GroupMembers organizationId={organizationId} group={group} manage={manage} onChanged={reload} />
      <GroupAssistants organizationId={organizationId} group={group} manage={manage} />
      <GroupKnowledgeBases group={group} manage={can("knowledge_base.manage")} />
    </>
  );
}

function GroupForm({
  organizationId,
  group,
  catalogue,
  manage,
  onSaved,
}: {
  organizationId: string;
  group: Group;
  catalogue: Parameters<typeof PermissionMatrix>[0]["catalogue"];
  manage: boolean;
  onSaved: (g: Group) => void;
}) {
  const [name, setName] = useState(group.name);
  const [selected, setSelected] = useState(() => new Set(group.permissions.map((p) => p.id)));
  const { busy, problem, submit } = useSubmit(async () => {
    const saved = await updateGroup(organizationId, group.id, { name: name.trim(), permissions: [...selected] });
    toast(t("groupSaved", { name: saved.name }));
    onSaved(saved);
  });
  return (
    <form class="stack section" onSubmit={submit} aria-label={t("savePermissions")}>
      <fieldset class="plain stack" disabled={!manage}>
        <TextField
          label={t("groupName")}
          value={name}
          required
          maxLength={150}
          onInput={(e) => setName(e.currentTarget.value)}
          error={problem?.field("name")}
        />
        <PermissionMatrix catalogue={catalogue} selected={selected} onChange={setSelected} disabled={!manage} />
      </fieldset>
      {problem && !problem.field("name") && <ErrorAlert error={problem} />}
      {manage && (
        <div>
          <Button type="submit" variant="primary" busy={busy}>
            {t("savePermissions")}
          </Button>
        </div>
      )}
    </form>
  );
}
