import {
  actionsColumn,
  useRemoval,
  FormDialog,
  ErrorAlert,
  Loading,
  CheckboxField,
  TextField,
  DataTable,
  type Column,
  Pager,
  toast,
  usePagedResource,
  useResource,
  Section,
} from "../../components";
import { useState } from "preact/hooks";
import { formatTime } from "../../i18n";
import { can } from "../../shell/session";
import {
  addMember,
  listGroups,
  listMembers,
  memberName,
  PAGE_SIZE,
  removeMember,
  setMemberGroups,
  type Group,
  type Member,
} from "./api";
import { t } from "./strings";

/** The organization's members: added by e-mail, their groups changed, removed. */
export function MembersSection({
  organizationId,
  groupsChanged,
}: {
  organizationId: string;
  groupsChanged: () => void;
}) {
  const { page, setPage, list: members } = usePagedResource((n) => listMembers(organizationId, n), [organizationId]);
  const [adding, setAdding] = useState(false);
  const [grouping, setGrouping] = useState<Member | null>(null);
  const changed = async () => {
    await members.reload();
    groupsChanged();
  };
  const removing = useRemoval<Member>({
    title: t("removeMemberTitle"),
    message: (m) => t("removeMemberMessage", { name: memberName(m) }),
    action: t("remove"),
    run: (m) => removeMember(organizationId, m.id),
    done: (m) => t("memberRemoved", { name: memberName(m) }),
    after: changed,
  });
  const manage = can("member.manage");
  const list = members.data && "results" in members.data ? members.data : undefined;
  const columns: Column<Member>[] = [
    {
      label: t("name"),
      rowHeader: true,
      cell: (m) => (
        <>
          {memberName(m)} {m.isOwner && <span class="badge">{t("owner")}</span>}
        </>
      ),
    },
    { label: t("email"), cell: (m) => m.user.email },
    {
      label: t("groups"),
      class: "wrap",
      cell: (m) =>
        m.groups.length ? m.groups.map((g) => g.name).join(", ") : <span class="muted">{t("noGroups")}</span>,
    },
    { label: t("joined"), cell: (m) => formatTime(m.createdAt) },
  ];
  if (manage)
    columns.push(
      actionsColumn<Member>(t("actions"), [
        {
          text: t("editGroups"),
          named: (m) => t("editGroupsNamed", { name: memberName(m) }),
          run: setGrouping,
          when: (m) => !m.isOwner,
        },
        {
          text: t("remove"),
          named: (m) => t("removeNamed", { name: memberName(m) }),
          run: removing.ask,
          danger: true,
          when: (m) => !m.isOwner,
        },
      ]),
    );
  return (
    <Section
      id="members-title"
      title={t("members")}
      action={manage && { text: t("addMember"), run: () => setAdding(true) }}
      intro={t("membersIntro")}
    >
      <ErrorAlert error={members.error} />
      {!list ? (
        members.loading && <Loading />
      ) : (
        <DataTable labelledBy="members-title" rows={list.results} rowKey={(m) => m.id} columns={columns} />
      )}
      {list && <Pager page={page} count={list.count} pageSize={PAGE_SIZE} onPage={setPage} />}
      {adding && (
        <AddMember organizationId={organizationId} onClose={() => setAdding(false)} onAdded={members.reload} />
      )}
      {grouping && (
        <MemberGroups
          organizationId={organizationId}
          member={grouping}
          onClose={() => setGrouping(null)}
          onSaved={changed}
        />
      )}
      {removing.dialog}
    </Section>
  );
}

function AddMember({
  organizationId,
  onClose,
  onAdded,
}: {
  organizationId: string;
  onClose: () => void;
  onAdded: () => void;
}) {
  const save = async (form: FormData) => {
    const email = String(form.get("email") ?? "").trim();
    const member = await addMember(organizationId, email);
    toast(t("memberAdded", { name: memberName(member) }));
    onAdded();
    onClose();
  };
  return (
    <FormDialog title={t("addMember")} submit={t("add")} save={save} onClose={onClose}>
      <TextField label={t("email")} name="email" type="email" required autoComplete="off" hint={t("emailHint")} />
    </FormDialog>
  );
}

/** Ticks the groups a member is in (update-groups replaces the whole set). */
function MemberGroups({
  organizationId,
  member,
  onClose,
  onSaved,
}: {
  organizationId: string;
  member: Member;
  onClose: () => void;
  onSaved: () => void;
}) {
  const groups = useResource(() => listGroups(organizationId), [organizationId]);
  const save = async (form: FormData) => {
    await setMemberGroups(organizationId, member.id, form.getAll("group").map(String));
    toast(t("groupsSaved", { name: memberName(member) }));
    onSaved();
    onClose();
  };
  const held = new Set(member.groups.map((g) => g.id));
  return (
    <FormDialog title={t("groupsOf", { name: memberName(member) })} submit={t("save")} save={save} onClose={onClose}>
      <fieldset class="plain stack">
        <legend class="hint">{t("groupsHint")}</legend>
        {groups.data === undefined ? (
          <Loading />
        ) : groups.data.results.length === 0 ? (
          <p>{t("noGroupsYet")}</p>
        ) : (
          groups.data.results.map((g: Group) => (
            <CheckboxField key={g.id} label={g.name} name="group" value={g.id} defaultChecked={held.has(g.id)} />
          ))
        )}
      </fieldset>
      <ErrorAlert error={groups.error} />
    </FormDialog>
  );
}
