import {
  actionsColumn,
  FormDialog,
  ErrorAlert,
  Loading,
  CheckboxField,
  TextField,
  type Column,
  useCrudList,
  useResource,
  ResourceListSection,
} from "../../components";
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

/**
 * The organization's members: added by e-mail, their groups changed (the list's edit form), removed. A change of a
 * member's groups changes the groups' member counts: `groupsChanged` has the groups' list loaded again.
 */
export function MembersSection({
  organizationId,
  groupsChanged,
}: {
  organizationId: string;
  groupsChanged: () => void;
}) {
  const crud = useCrudList((page) => listMembers(organizationId, page), [organizationId]);
  const manage = can("member.manage");
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
          run: crud.setEditing,
          when: (m) => !m.isOwner,
        },
        {
          text: t("remove"),
          named: (m) => t("removeNamed", { name: memberName(m) }),
          run: crud.setDeleting,
          danger: true,
          when: (m) => !m.isOwner,
        },
      ]),
    );
  return (
    <ResourceListSection
      id="members-title"
      title={t("members")}
      action={manage && { text: t("addMember"), run: () => crud.setEditing("new") }}
      intro={t("membersIntro")}
      crud={crud}
      columns={columns}
      empty={t("noMembers")}
      pageSize={PAGE_SIZE}
      form={(member, close, saved) =>
        member ? (
          <MemberGroups
            organizationId={organizationId}
            member={member}
            onClose={close}
            onSaved={(saving) => {
              saved(saving);
              groupsChanged();
            }}
          />
        ) : (
          <AddMember organizationId={organizationId} onClose={close} onAdded={(added) => saved(added, true)} />
        )
      }
      saved={(m, added) => t(added ? "memberAdded" : "groupsSaved", { name: memberName(m) })}
      remove={{
        title: t("removeMemberTitle"),
        message: (m) => t("removeMemberMessage", { name: memberName(m) }),
        action: t("remove"),
        run: async (m) => {
          await removeMember(organizationId, m.id);
          groupsChanged();
        },
        done: (m) => t("memberRemoved", { name: memberName(m) }),
      }}
    />
  );
}

function AddMember({
  organizationId,
  onClose,
  onAdded,
}: {
  organizationId: string;
  onClose: () => void;
  onAdded: (member: Member) => void;
}) {
  const save = async (form: FormData) => {
    const email = String(form.get("email") ?? "").trim();
    onAdded(await addMember(organizationId, email));
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
  onSaved: (member: Member) => void;
}) {
  const groups = useResource(() => listGroups(organizationId), [organizationId]);
  const save = async (form: FormData) => {
    onSaved(await setMemberGroups(organizationId, member.id, form.getAll("group").map(String)));
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
