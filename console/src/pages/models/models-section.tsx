import { useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import { can } from "../../shell/session";
import { ModelForm } from "./model-form";
import { deleteModel, listModels, testModel, type ConnectionTest, type Model } from "./api";
import { t } from "./strings";
import {
  unavailableReason,
  Button,
  useRemoval,
  ErrorAlert,
  Loading,
  Notice,
  announce,
  toast,
  useResource,
  DataTable,
  type Column,
  Section,
} from "../../components";

/** The organization's models: built-in and its own, with add, edit, delete and test connection for owners. */
export function ModelsSection({ organizationId }: { organizationId: string }) {
  const models = useResource(listModels, [organizationId]);
  const owner = can("owner");
  const [editing, setEditing] = useState<Model | "new" | null>(null);
  const removal = useRemoval<Model>({
    title: t("deleteTitle"),
    message: (m) => t("deleteMessage", { name: m.name }),
    run: deleteModel,
    done: (m) => t("modelDeleted", { name: m.name }),
    after: models.reload,
  });
  const [tests, setTests] = useState<Record<string, ConnectionTest | "running">>({});

  const runTest = async (model: Model) => {
    setTests((s) => ({ ...s, [model.id]: "running" }));
    try {
      const outcome = await testModel(model);
      setTests((s) => ({ ...s, [model.id]: outcome }));
      announce(
        outcome.ok
          ? t("testOkSay", { name: model.name, ms: outcome.durationMs })
          : t("testFailedSay", { name: model.name, detail: outcome.detail }),
        !outcome.ok,
      );
    } catch (err) {
      const detail = problemOf(err).detail;
      setTests((s) => ({ ...s, [model.id]: { ok: false, durationMs: 0, detail, sample: null } }));
      announce(t("testFailedSay", { name: model.name, detail }), true);
    }
  };
  const columns: Column<Model>[] = [
    {
      label: t("name"),
      rowHeader: true,
      cell: (m) => (
        <>
          {m.name} {m.isBuiltIn && <span class="badge">{t("builtIn")}</span>}
          {/* Said in words beside the model: assistants cannot be saved on it, and its pickers show it disabled. */}
          {!m.available && (
            <div class="model-unavailable small">{t("unavailable", { reason: unavailableReason(m) })}</div>
          )}
        </>
      ),
    },
    { label: t("kind"), cell: (m) => t(m.kind) },
    { label: t("provider"), cell: (m) => t(m.provider) },
    {
      label: t("model"),
      class: "wrap",
      cell: (m) => (
        <>
          <code>{m.modelName}</code>
          {m.baseUrl && <div class="muted small">{m.baseUrl}</div>}
        </>
      ),
    },
    { label: t("key"), class: "nowrap", cell: (m) => m.apiKeyPreview ?? "—" },
  ];
  if (owner)
    columns.push(
      { label: t("connection"), cell: (m) => <TestResult outcome={tests[m.id]} /> },
      {
        label: t("actions"),
        hiddenLabel: true,
        cell: (m) => (
          <div class="row-actions">
            <Button
              busy={tests[m.id] === "running"}
              aria-label={t("testNamed", { name: m.name })}
              onClick={() => runTest(m)}
            >
              {t("test")}
            </Button>
            {!m.isBuiltIn && (
              <Button aria-label={t("editNamed", { name: m.name })} onClick={() => setEditing(m)}>
                {t("edit")}
              </Button>
            )}
            {!m.isBuiltIn && (
              <Button variant="danger" aria-label={t("deleteNamed", { name: m.name })} onClick={() => removal.ask(m)}>
                {t("delete")}
              </Button>
            )}
          </div>
        ),
      },
    );
  const saved = (model: Model) => {
    toast(t("modelSaved", { name: model.name }));
    models.reload();
  };

  return (
    <Section
      id="models-title"
      title={t("models")}
      action={owner && { text: t("addModel"), run: () => setEditing("new") }}
      intro={t("modelsIntro")}
    >
      {!owner && <Notice>{t("ownersOnly")}</Notice>}
      <ErrorAlert error={models.error} />
      {models.data === undefined ? (
        models.loading && <Loading />
      ) : (
        <DataTable labelledBy="models-title" rows={models.data.models} rowKey={(m) => m.id} columns={columns} />
      )}
      {models.data?.truncated && <p class="muted">{t("firstHundred")}</p>}
      {editing && (
        <ModelForm
          open
          model={editing === "new" ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={saved}
        />
      )}
      {removal.dialog}
    </Section>
  );
}

function TestResult({ outcome }: { outcome: ConnectionTest | "running" | undefined }) {
  if (!outcome) return <span class="muted">—</span>;
  if (outcome === "running") return <span class="muted">{t("testing")}</span>;
  return outcome.ok ? (
    <span class="status ok" title={outcome.sample ?? undefined}>
      {t("testOk", { ms: outcome.durationMs })}
    </span>
  ) : (
    <span class="status failed">{t("testFailed", { detail: outcome.detail })}</span>
  );
}
