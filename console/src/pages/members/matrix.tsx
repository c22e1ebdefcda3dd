import { t } from "./strings";
import type { Permission } from "./api";
import { ACTIONS, actionLabel, resourceLabel, splitPermission as split } from "../../shell/permission-names";

/**
 * The permission catalogue as a table: a row per resource, a column per action, a checkbox per
 * permission that exists. A ticked "manage" shows "view" ticked too (it includes it).
 */
export function PermissionMatrix({
  catalogue,
  selected,
  onChange,
  disabled = false,
}: {
  catalogue: Permission[];
  selected: Set<string>;
  onChange: (next: Set<string>) => void;
  disabled?: boolean;
}) {
  const resources = [...new Set(catalogue.map((p) => split(p.codename)[0]))];
  const find = (resource: string, action: string) => catalogue.find((p) => p.codename === `${resource}.${action}`);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  return (
    <div class="table-wrap matrix" role="region" aria-labelledby="matrix-title" tabIndex={0}>
      <table class="table">
        <caption id="matrix-title">
          {t("matrix")} <span class="muted">· {t("matrixHint")}</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">{t("resource")}</th>
            {ACTIONS.map((a) => (
              <th key={a} scope="col">
                {actionLabel(a)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {resources.map((resource) => {
            const manage = find(resource, "manage");
            const implied = !!manage && selected.has(manage.id);
            return (
              <tr key={resource}>
                <th scope="row">{resourceLabel(resource)}</th>
                {ACTIONS.map((action) => {
                  const p = find(resource, action);
                  if (!p)
                    return (
                      <td key={action} data-label={actionLabel(action)}>
                        <span class="muted" aria-hidden="true">
                          —
                        </span>
                      </td>
                    );
                  const byManage = action === "view" && implied;
                  return (
                    <td key={action} data-label={actionLabel(action)}>
                      <input
                        type="checkbox"
                        aria-label={`${resourceLabel(resource)}: ${actionLabel(action)}`}
                        title={p.name}
                        checked={selected.has(p.id) || byManage}
                        disabled={disabled || byManage}
                        onChange={(e) => toggle(p.id, e.currentTarget.checked)}
                      />
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
