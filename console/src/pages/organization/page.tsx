import { useState } from "preact/hooks";
import { type ApiProblem, problemOf } from "../../api/client";
import {
  fieldsOf,
  Button,
  ErrorAlert,
  Loading,
  TextField,
  PageForm,
  PageHeader,
  announce,
  toast,
  useResource,
} from "../../components";
import { formatBytes, formatTime } from "../../i18n";
import type { PageProps } from "../types";
import { getOrganization, type Organization, patchOrganization } from "./api";
import { t } from "./strings";

const LOGOS = ["compactLogo", "fullLogo"] as const;
const TEXT = ["name", "themePrimaryColor", "companyName", "taxId", "contactPhone"] as const;

/** The organization's settings and its logos (uploaded through the API's multipart form). */
export default function OrganizationPage({ organizationId }: PageProps) {
  const loaded = useResource(() => getOrganization(organizationId), [organizationId]);
  const [organization, setOrganization] = useState<Organization | null>(null);
  const current = organization ?? loaded.data;
  return (
    <>
      <PageHeader title={t("title")} />
      <ErrorAlert error={loaded.error} />
      {!current ? (
        loaded.loading && <Loading />
      ) : (
        <>
          <Settings key={current.id} organization={current} onSaved={setOrganization} />
          <Logos organization={current} onSaved={setOrganization} />
        </>
      )}
    </>
  );
}

/** What the organization's files store, and the plan's cap when it has one ("12 MB of 100 MB"). */
function storedFiles(usage: Organization["usageStatistics"]): string {
  const used = formatBytes(usage.usedUploadFileSizeTotal);
  const available = usage.availableUploadFilesSizeTotal;
  return available === null ? used : t("uploadsOf", { used, available: formatBytes(available) });
}

function Settings({ organization, onSaved }: { organization: Organization; onSaved: (o: Organization) => void }) {
  const save = async (form: FormData) => {
    const value = (k: string) => String(form.get(k) ?? "").trim();
    const body = Object.fromEntries(TEXT.map((k) => [k, k === "name" ? value(k) : value(k) || null]));
    onSaved(await patchOrganization(organization.id, body));
    toast(t("saved"));
  };
  const field = fieldsOf(organization, t);
  return (
    <section class="section" aria-labelledby="settings-title">
      <h2 id="settings-title">{t("settings")}</h2>
      <dl class="org-facts">
        <dt>{t("plan")}</dt>
        <dd>{organization.organizationPlan.planName}</dd>
        <dt>{t("uploads")}</dt>
        <dd>{storedFiles(organization.usageStatistics)}</dd>
        <dt>{t("created")}</dt>
        <dd>{formatTime(organization.createdAt)}</dd>
      </dl>
      <PageForm class="org-form" submit={t("save")} save={save} labelledBy="settings-title">
        <TextField {...field("name")} required maxLength={200} />
        <TextField
          {...field("themePrimaryColor")}
          maxLength={7}
          placeholder="#3366FF"
          hint={t("themePrimaryColorHint")}
        />
        <TextField {...field("companyName")} maxLength={200} />
        <TextField {...field("taxId")} inputMode="numeric" maxLength={8} hint={t("taxIdHint")} />
        <TextField {...field("contactPhone")} type="tel" maxLength={50} />
      </PageForm>
    </section>
  );
}

function Logos({ organization, onSaved }: { organization: Organization; onSaved: (o: Organization) => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const run = async (
    field: (typeof LOGOS)[number],
    body: Record<string, unknown> | FormData,
    said: "uploaded" | "removed",
  ) => {
    setBusy(field);
    setProblem(null);
    try {
      onSaved(await patchOrganization(organization.id, body));
      toast(t(said, { name: t(field) }));
    } catch (err) {
      const p = problemOf(err);
      setProblem(p);
      announce(p.field(field) ?? p.detail, true);
    } finally {
      setBusy(null);
    }
  };
  return (
    <section class="section" aria-labelledby="logos-title">
      <h2 id="logos-title">{t("logos")}</h2>
      <p class="muted">{t("logosIntro")}</p>
      {problem && !Object.keys(problem.errors).length && <ErrorAlert error={problem} />}
      <div class="logos">
        {LOGOS.map((field) => {
          const url = organization[field];
          const error = problem?.field(field);
          return (
            <div class="logo-card" key={field}>
              <h3>{t(field)}</h3>
              {url ? <img src={url} alt={t("current", { name: t(field) })} /> : <p class="muted">{t("noLogo")}</p>}
              <label class="btn secondary file-button">
                {t("choose", { name: t(field) })}
                <input
                  type="file"
                  accept="image/png,image/jpeg,image/gif"
                  class="sr-only"
                  disabled={busy !== null}
                  aria-describedby={error ? `${field}-error` : undefined}
                  onChange={(e) => {
                    const file = e.currentTarget.files?.[0];
                    e.currentTarget.value = "";
                    if (!file) return;
                    const form = new FormData();
                    form.set(field, file);
                    void run(field, form, "uploaded");
                  }}
                />
              </label>
              {url && (
                <Button variant="quiet" busy={busy === field} onClick={() => run(field, { [field]: null }, "removed")}>
                  {t("remove", { name: t(field) })}
                </Button>
              )}
              {error && (
                <p class="field-error" id={`${field}-error`}>
                  {error}
                </p>
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}
