import { choicesOf } from "../api/choices";
import { currentMember } from "./api";
import { CheckList, pickedIds } from "./check-list";
import { t } from "./strings";
import { useResource } from "./use-resource";

type IdName = { id: string; name: string };

/**
 * The organization's groups; a member who may not list them (no `group.view`) gets their own
 * groups, which are the ones the API lets them give a record anyway.
 */
async function pickable(organizationId: string): Promise<IdName[]> {
  return (await choicesOf("groups", organizationId)) ?? (await currentMember(organizationId)).groups;
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
export function GroupPicker({ organizationId, chosen, name = "groups", error }: Props) {
  const groups = useResource(() => pickable(organizationId), [organizationId]);
  return (
    <CheckList
      legend={t("groups")}
      hint={t("groupsHint")}
      name={name}
      choices={groups}
      chosen={chosen}
      empty={groups.error ? t("groupsUnavailable") : t("noGroups")}
      error={error}
    />
  );
}

/** The picked groups of a form, as the API takes them. */
export const pickedGroups = (form: FormData, name = "groups") => pickedIds(form, name);
