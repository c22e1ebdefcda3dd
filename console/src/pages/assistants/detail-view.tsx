import { useState } from "preact/hooks";
import { ApiProblem } from "../../api/client";
import { Button, useRemoval, ErrorAlert, Loading, PageHeader, useResource } from "../../components";
import { BASE, followLink, navigate } from "../../shell/router";
import { can } from "../../shell/session";
import { deleteAssistant, getAssistant, loadChoices, type Assistant } from "./api";
import { AssistantForm } from "./assistant-form";
import { AssistantSummary } from "./assistant-summary";
import { TryIt } from "./try-it";
import { PublishButton, PublishPanel } from "./publish-panel";
import { t } from "./strings";

/** One assistant: its settings (a form for who may change it, else a summary) beside the try-it panel. */
export function AssistantDetail({ id, organizationId }: { id: string; organizationId: string }) {
  const loaded = useResource(() => getAssistant(id), [id]);
  const [current, setCurrent] = useState<Assistant | null>(null);
  const removal = useRemoval<Assistant>({
    title: t("deleteTitle"),
    message: (a) => t("deleteMessage", { name: a.name }),
    run: (a) => deleteAssistant(a.id),
    done: (a) => t("deleted", { name: a.name }),
    after: async () => navigate("/assistants"),
  });
  const assistant = current?.id === id ? current : loaded.data;
  const editable = !!assistant?.canUpdate;
  const choices = useResource(
    () => (editable ? loadChoices(organizationId) : Promise.resolve(null)),
    [organizationId, editable],
  );
  const back = (
    <a class="back-link" href={`${BASE}/assistants`} onClick={followLink}>
      {t("allAssistants")}
    </a>
  );
  if (!assistant) {
    if (loaded.error instanceof ApiProblem && loaded.error.status === 404)
      return (
        <>
          <PageHeader title={t("notFound")} />
          <p>{t("notFoundText")}</p>
          {back}
        </>
      );
    return (
      <>
        {back}
        <ErrorAlert error={loaded.error} />
        {loaded.loading && <Loading />}
      </>
    );
  }
  return (
    <>
      {back}
      <PageHeader title={assistant.name}>
        {can("inbox.view") && <PublishButton />}
        {assistant.canDelete && (
          <Button variant="danger" onClick={() => removal.ask(assistant)}>
            {t("delete")}
          </Button>
        )}
      </PageHeader>
      <div class="assistant-layout">
        <div class="assistant-settings">
          {!editable ? (
            <AssistantSummary assistant={assistant} />
          ) : choices.data ? (
            <AssistantForm key={assistant.id} assistant={assistant} choices={choices.data} onSaved={setCurrent} />
          ) : (
            <>
              <ErrorAlert error={choices.error} />
              {choices.loading && <Loading />}
            </>
          )}
        </div>
        {can("conversation.manage") && (
          <TryIt key={assistant.id} assistantId={assistant.id} assistantName={assistant.name} />
        )}
      </div>
      {can("inbox.view") && (
        <PublishPanel key={assistant.id} assistantId={assistant.id} assistantName={assistant.name} />
      )}
      {removal.dialog}
    </>
  );
}
