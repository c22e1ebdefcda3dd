import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import { ErrorAlert, announce, Button, useResource } from "../../components";
import { assign, assignees, type Conversation } from "./api";
import { t } from "./strings";

type Option = [string, string];

/**
 * Who a conversation can go to (`assignees/`, which `conversation.manage` reads): the members of its team (everyone's
 * when it has none), each with their availability, and the teams.
 */
async function choices(id: string) {
  const { members, teams } = await assignees(id);
  return {
    members: members
      .filter((m) => m.inTeam)
      .map(
        (m): Option => [
          `member:${m.id}`,
          t("assigneeOption", { name: m.name || m.email, availability: t(`availability_${m.availability}`) }),
        ],
      ),
    teams: teams.map((g): Option => [`team:${g.id}`, g.name]),
  };
}

/** The "Assign" control of a conversation's header: a member, a team, or no one. */
export function AssignControl({ c, onChanged }: { c: Conversation; onChanged: (c: Conversation) => void }) {
  // Asked again when the conversation's team changes: who may be assigned changes with it.
  const options = useResource(() => choices(c.id), [c.id, c.team?.id]);
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
  const members = options.data?.members ?? [];
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
      {/* The kit's field markup (label above, the console's select) written out: SelectField takes flat options, and
          this one groups members and teams in optgroups. */}
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
      <ErrorAlert error={error ?? options.error} />
    </form>
  );
}
