import { useId } from "preact/hooks";
import { ApiProblem, api, unwrap } from "../api/client";
import { Loading } from "./alert";
import { t } from "./strings";
import { useResource } from "./use-resource";

type IdName = { id: string; name: string };

/**
 * The organization's groups; a member who may not list them (403: no `group.view`) gets their own
 * groups, which are the ones the API lets them give a record anyway.
 */
async function pickable(organizationId: string): Promise<IdName[]> {
  const path = { organizationPk: organizationId };
  try {
    return (await unwrap(api.GET("/api/v1/organizations/{organizationPk}/groups/", { params: { path, query: { pageSize: 100 } } }))).results;
  } catch (err) {
    if (!(err instanceof ApiProblem) || err.status !== 403) throw err;
    return (await unwrap(api.GET("/api/v1/organizations/{organizationPk}/members/current/", { params: { path } }))).groups;
  }
}

interface Props {
  organizationId: string;
  /** The record's groups (shown ticked, even when they are not listed). */
  chosen?: IdName[];
  /** The checkboxes' name in the form (their values are group ids). */
  name?: string;
  error?: string;
}

/** Which groups may see and use a record (`groups: [{id}]`), as checkboxes read from the form. */
export function GroupPicker({ organizationId, chosen = [], name = "groups", error }: Props) {
  const id = useId();
  const groups = useResource(() => pickable(organizationId), [organizationId]);
  const ticked = new Set(chosen.map((g) => g.id));
  const shown = [...chosen, ...(groups.data ?? []).filter((g) => !ticked.has(g.id))];
  return (
    <fieldset class={`group-picker${error ? " invalid" : ""}`} aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}>
      <legend>{t("groups")}</legend>
      <p class="hint" id={`${id}-hint`}>{t("groupsHint")}</p>
      {groups.loading && !groups.data ? (
        <Loading />
      ) : shown.length === 0 ? (
        <p class="muted small">{groups.error ? t("groupsUnavailable") : t("noGroups")}</p>
      ) : (
        <ul class="choices">
          {shown.map((g) => (
            <li key={g.id}>
              <label>
                <input type="checkbox" name={name} value={g.id} defaultChecked={ticked.has(g.id)} />
                {g.name}
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </fieldset>
  );
}

/** The picked groups of a form, as the API takes them. */
export const pickedGroups = (form: FormData, name = "groups") => form.getAll(name).map((id) => ({ id: String(id) }));
