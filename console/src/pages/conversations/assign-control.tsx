import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { choicesOf } from "../../api/choices";
import { problemOf } from "../../api/client";
import { ErrorAlert } from "../../components/alert";
import { announce } from "../../components/announcer";
import { Button } from "../../components/button";
import { useResource } from "../../components/use-resource";
import { membership, session } from "../../shell/session";
import { assign, assignableMembers, type Conversation } from "./api";
import { t } from "./strings";

type Option = [string, string];

/** Who a conversation can go to: the members and teams the caller may list (else only themselves). */
async function choices(organizationPk: string) {
  const [members, groups] = await Promise.all([assignableMembers(organizationPk), choicesOf("groups", organizationPk)]);
  const people = members && "results" in members ? members.results : [];
  return {
    members: people.map((m): Option => [`member:${m.user.id}`, m.user.name || m.user.email]),
    teams: (groups ?? []).map((g): Option => [`team:${g.id}`, g.name]),
  };
}

/** The "Assign" control of a conversation's header: a member, a team, or no one. */
export function AssignControl({ c, onChanged }: { c: Conversation; onChanged: (c: Conversation) => void }) {
  const organizationPk = membership.value?.organization.id ?? "";
  const me = session.value?.user;
  const options = useResource(() => choices(organizationPk), [organizationPk]);
  const [choice, setChoice] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The button is disabled while its request runs and stays so once the choice is cleared: focus would fall to the
  // page. It goes to the choice after an assignment (the next one starts there), back to the button after a failure.
  const select = useRef<HTMLSelectElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [focusNext, setFocusNext] = useState<"select" | "button" | null>(null);
  useLayoutEffect(() => {
    if (!focusNext) return;
    (focusNext === "select" ? select : button).current?.focus();
    setFocusNext(null);
  }, [focusNext]);
  const members = options.data?.members.length
    ? options.data.members
    : me
      ? [[`member:${me.id}`, me.name] as Option]
      : [];
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!choice) return;
    setBusy(true);
    setError(null);
    try {
      const [kind, id] = choice.split(":");
      const body = kind === "none" ? { assigneeId: null } : kind === "team" ? { teamId: id } : { assigneeId: id };
      const updated = await assign(c.id, body);
      onChanged(updated);
      setChoice("");
      setFocusNext("select");
      announce(
        updated.assignee
          ? t("assignedTo", { name: updated.assignee.name })
          : updated.team && kind === "team"
            ? t("assignedTo", { name: updated.team.name })
            : t("unassigned"),
      );
    } catch (err) {
      setError(problemOf(err));
      setFocusNext("button");
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="inbox-assign" onSubmit={submit}>
      {/* The kit's field (label above, the console's select), as the filters above it: not a bare browser control. */}
      <div class="field">
        <label for="inbox-assign-choice">{t("assign")}</label>
        <select ref={select} id="inbox-assign-choice" value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
          <option value="">{t("assignChoose")}</option>
          <optgroup label={t("members")}>
            {members.map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </optgroup>
          {!!options.data?.teams.length && (
            <optgroup label={t("teams")}>
              {options.data.teams.map(([value, name]) => (
                <option key={value} value={value}>
                  {name}
                </option>
              ))}
            </optgroup>
          )}
          <option value="none:">{t("unassign")}</option>
        </select>
      </div>
      <Button ref={button} type="submit" busy={busy} disabled={!choice}>
        {t("assignButton")}
      </Button>
      <ErrorAlert error={error} />
    </form>
  );
}
