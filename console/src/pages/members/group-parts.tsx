import { useId, useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import { Button, ErrorAlert, Loading, CheckboxField, toast, useAction, useResource } from "../../components";
import {
  addGroupChatbot,
  addGroupMember,
  allMembers,
  groupChatbots,
  groupMembers,
  listAssistants,
  listKnowledgeBases,
  memberName,
  removeGroupChatbot,
  removeGroupMember,
  setKnowledgeBaseGroups,
  type Group,
} from "./api";
import { t } from "./strings";

interface Link {
  /** The link's id (what DELETE takes). */
  id: string;
  /** The linked thing's id and name. */
  target: { id: string; name: string };
}

/**
 * What a group holds through link records (members, assistants): the list with a remove button
 * each, and a picker of what is not linked yet with an add button.
 */
function Links({
  title,
  empty,
  pickLabel,
  links,
  candidates,
  manage,
  onAdd,
  onRemove,
  removeLabel,
}: {
  title: string;
  empty: string;
  pickLabel: string;
  links: Link[] | undefined;
  candidates: { id: string; name: string }[] | undefined;
  manage: boolean;
  onAdd: (target: { id: string; name: string }) => Promise<void>;
  onRemove: (link: Link) => Promise<void>;
  removeLabel: (name: string) => string;
}) {
  const id = useId();
  const [choice, setChoice] = useState("");
  const { busy, problem: error, run } = useAction((action: () => Promise<void>) => action());
  const linked = new Set(links?.map((l) => l.target.id));
  const free = candidates?.filter((c) => !linked.has(c.id)) ?? [];
  return (
    <section class="section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {links === undefined ? (
        <Loading />
      ) : links.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <ul class="links" aria-labelledby={`${id}-title`}>
          {links.map((l) => (
            <li key={l.id}>
              <span>{l.target.name}</span>
              {manage && (
                <Button
                  variant="quiet"
                  busy={busy}
                  aria-label={removeLabel(l.target.name)}
                  onClick={() => run(() => onRemove(l))}
                >
                  {t("remove")}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {manage && free.length > 0 && (
        <div class="add-link">
          <div class="field">
            <label for={`${id}-pick`}>{pickLabel}</label>
            <select id={`${id}-pick`} value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
              <option value="">{t("choose")}</option>
              {free.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <Button
            busy={busy}
            disabled={!choice}
            onClick={() =>
              run(async () => {
                await onAdd(free.find((c) => c.id === choice)!);
                setChoice("");
              })
            }
          >
            {t("add")}
          </Button>
        </div>
      )}
      <ErrorAlert error={error} />
    </section>
  );
}

export function GroupMembers({
  organizationId,
  group,
  manage,
  onChanged,
}: {
  organizationId: string;
  group: Group;
  manage: boolean;
  onChanged: () => void;
}) {
  const links = useResource(() => groupMembers(organizationId, group.id), [group.id]);
  const members = useResource(() => (manage ? allMembers(organizationId) : Promise.resolve([])), [organizationId]);
  return (
    <Links
      title={t("groupMembers")}
      empty={t("groupMembersEmpty")}
      pickLabel={t("addToGroup")}
      links={links.data?.results.map((l) => ({ id: l.id, target: { id: l.member.id, name: memberName(l.member) } }))}
      candidates={members.data?.filter((m) => !m.isOwner).map((m) => ({ id: m.id, name: memberName(m) }))}
      manage={manage}
      removeLabel={(name) => t("removeNamed", { name })}
      onAdd={async (m) => {
        await addGroupMember(organizationId, group.id, m.id);
        toast(t("addedToGroup", { name: m.name }));
        await links.reload();
        onChanged();
      }}
      onRemove={async (l) => {
        await removeGroupMember(organizationId, group.id, l.id);
        toast(t("removedFromGroup", { name: l.target.name }));
        await links.reload();
        onChanged();
      }}
    />
  );
}

export function GroupAssistants({
  organizationId,
  group,
  manage,
}: {
  organizationId: string;
  group: Group;
  manage: boolean;
}) {
  const links = useResource(() => groupChatbots(organizationId, group.id), [group.id]);
  const chatbots = useResource(() => (manage ? listAssistants() : Promise.resolve([])), [organizationId]);
  return (
    <Links
      title={t("assistants")}
      empty={t("assistantsEmpty")}
      pickLabel={t("addAssistant")}
      links={links.data?.results.map((l) => ({ id: l.id, target: l.chatbot }))}
      candidates={chatbots.data?.map((c) => ({ id: c.id, name: c.name }))}
      manage={manage}
      removeLabel={(name) => t("removeNamed", { name })}
      onAdd={async (c) => {
        await addGroupChatbot(organizationId, group.id, c.id);
        toast(t("assistantAdded", { name: c.name }));
        await links.reload();
      }}
      onRemove={async (l) => {
        await removeGroupChatbot(organizationId, group.id, l.id);
        toast(t("assistantRemoved", { name: l.target.name }));
        await links.reload();
      }}
    />
  );
}

/** Knowledge bases carry their groups themselves: ticking one adds this group to its `groups`. */
export function GroupKnowledgeBases({ group, manage }: { group: Group; manage: boolean }) {
  const bases = useResource(listKnowledgeBases, [group.id]);
  const [error, setError] = useState<unknown>(null);
  // What the member ticked, shown until the saved list is read back: a render meanwhile (another section's reload)
  // would otherwise put the box back as the last read had it.
  const [saving, setSaving] = useState<Record<string, boolean>>({});
  const toggle = async (kb: NonNullable<typeof bases.data>[number], on: boolean) => {
    setError(null);
    setSaving((s) => ({ ...s, [kb.id]: on }));
    const others = kb.groups.filter((g) => g.id !== group.id).map((g) => ({ id: g.id }));
    try {
      await setKnowledgeBaseGroups(kb.id, on ? [...others, { id: group.id }] : others);
      toast(t("kbSaved", { name: kb.name }));
      await bases.reload();
    } catch (err) {
      setError(problemOf(err));
    } finally {
      setSaving(({ [kb.id]: _, ...rest }) => rest);
    }
  };
  return (
    <section class="section" aria-labelledby="group-kb-title">
      <h2 id="group-kb-title">{t("knowledgeBases")}</h2>
      <p class="muted">{t("knowledgeBasesHint")}</p>
      {bases.data === undefined ? (
        bases.loading && <Loading />
      ) : bases.data.length === 0 ? (
        <p class="muted">{t("knowledgeBasesEmpty")}</p>
      ) : (
        <div class="kb-list">
          {bases.data.map((kb) => (
            <CheckboxField
              key={kb.id}
              label={kb.name}
              checked={saving[kb.id] ?? kb.groups.some((g) => g.id === group.id)}
              disabled={!manage}
              onChange={(e) => toggle(kb, e.currentTarget.checked)}
            />
          ))}
        </div>
      )}
      <ErrorAlert error={error ?? bases.error} />
    </section>
  );
}
