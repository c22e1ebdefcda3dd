import { Dialog, ErrorAlert, Loading, Markdown, useResource } from "../../components";
import { formatTime } from "../../i18n";
import { getSkill } from "./api";
import { t } from "./strings";

/** A skill's instructions (markdown, rendered safely) and its resource files. */
export function SkillDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const skill = useResource(() => getSkill(id), [id]);
  const s = skill.data;
  return (
    <Dialog title={s?.name ?? t("skill")} open onClose={onClose}>
      <ErrorAlert error={skill.error} />
      {!s ? (
        skill.loading && <Loading />
      ) : (
        <div class="stack">
          <p>{s.description}</p>
          {s.whenToUse && (
            <p class="muted">
              {t("whenToUse")}: {s.whenToUse}
            </p>
          )}
          {s.skillPackageName && (
            <p class="small muted">
              {t("packageInfo", {
                name: s.skillPackageName,
                size: s.skillPackageSize ?? 0,
                at: formatTime(s.skillPackageUploadedAt),
              })}
            </p>
          )}
          <h3>{t("instructions")}</h3>
          <Markdown source={s.instructions} class="skill-instructions" />
          <h3>{t("resources")}</h3>
          {s.resources.length ? (
            <ul>
              {s.resources.map((r) => (
                <li key={r.id}>
                  <code>{r.path}</code> <span class="muted small">{t("bytes", { n: r.fileSize })}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">{t("noResources")}</p>
          )}
        </div>
      )}
    </Dialog>
  );
}
