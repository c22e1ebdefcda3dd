import {
  actionsColumn,
  deleteAction,
  FormDialog,
  ErrorAlert,
  Loading,
  TextField,
  type Column,
  toast,
  useCrudList,
  useResource,
  ResourceListSection,
} from "../../components";
import { useState } from "preact/hooks";
import { BASE, followLink, navigate } from "../../shell/router";
import { can } from "../../shell/session";
import { permissionLabel } from "../../shell/permission-names";
import { PermissionMatrix } from "./matrix";
import { createGroup, deleteGroup, listGroupsPage, PAGE_SIZE, permissionCatalogue, type Group } from "./api";
import { t } from "./strings";

/** The organization's groups: created with their permissions, opened, deleted. */
export function GroupsSection({ organizationId, version }: { organizationId: string; version: number }) {
  const crud = useCrudList((n) => listGroupsPage(organizationId, n), [organizationId, version]);
  const [creating, setCreating] = useState(false);
  const manage = can("group.manage");
  const columns: Column<Group>[] = [
    {
      label: t("groupName"),
      rowHeader: true,
      cell: (g) => (
        <a href={`${BASE}/members/groups/${g.id}`} onClick={followLink}>
          {g.name}
        </a>
      ),
    },
    {
      label: t("permissions"),
      class: "wrap",
      cell: (g) => g.permissions.map((p) => permissionLabel(p.codename)).join(", ") || "—",
    },
    { label: t("membersCount"), cell: (g) => g.membersCount },
  ];
  if (manage)
    columns.push(
      actionsColumn<Group>(t("actions"), [deleteAction((g) => t("deleteNamed", { name: g.name }), crud.setDeleting)]),
    );
  return (
    <ResourceListSection
      id="groups-title"
      title={t("groupsTitle")}
      action={manage ? { text: t("newGroup"), run: () => setCreating(true) } : undefined}
      intro={t("groupsIntro")}
      crud={crud}
      columns={columns}
      empty={t("noGroupsYet")}
      pageSize={PAGE_SIZE}
      pagerOf={t("groupsTitle")}
      remove={{
        title: t("deleteGroupTitle"),
        message: (g) => t("deleteGroupMessage", { n: g.membersCount }),
        run: (g) => deleteGroup(organizationId, g.id),
        done: (g) => t("groupDeleted", { name: g.name }),
      }}
    >
      {creating && <NewGroup organizationId={organizationId} onClose={() => setCreating(false)} />}
    </ResourceListSection>
  );
}

/** Name and permissions; the new group's page opens next (its members, assistants, knowledge bases). */
function NewGroup({ organizationId, onClose }: { organizationId: string; onClose: () => void }) {
  const catalogue = useResource(permissionCatalogue, []);
  const [selected, setSelected] = useState(new Set<string>());
  const save = async (form: FormData) => {
    const name = String(form.get("name") ?? "").trim();
    const group = await createGroup(organizationId, { name, permissions: [...selected] });
    toast(t("groupSaved", { name: group.name }));
    onClose();
    navigate(`/members/groups/${group.id}`);
  };
  return (
    <FormDialog title={t("newGroup")} submit={t("create")} save={save} onClose={onClose}>
      <TextField label={t("groupName")} name="name" required maxLength={150} />
      {catalogue.data ? (
        <PermissionMatrix catalogue={catalogue.data} selected={selected} onChange={setSelected} />
      ) : (
        <Loading />
      )}
      <ErrorAlert error={catalogue.error} />
    </FormDialog>
  );
}
