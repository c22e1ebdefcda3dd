import { editDeleteColumn, Button, type Column, useCrudList, useResource, ResourceListSection } from "../../components";
import { useState } from "preact/hooks";
import { can, session } from "../../shell/session";
import { deleteConnector, listConnectors, listRegistry, myCredentials, type Connector } from "./api";
import { ConnectorForm } from "./connector-form";
import { CredentialDialog } from "./credential-dialog";
import { t } from "./strings";

/** The organization's connectors: instances of the MCP registry's entries, enabled or not. */
export function ConnectorsSection({ organizationId }: { organizationId: string }) {
  const crud = useCrudList(listConnectors, [organizationId]);
  const connectors = crud.list;
  const registry = useResource(listRegistry, []);
  const manage = can("tool.manage");
  const [crediting, setCrediting] = useState<Connector | null>(null);
  // The user's own credentials, for the connectors on this page whose server takes one.
  const needing = (connectors.data?.results ?? []).filter((c) => c.mcpRegistry.authKind !== "none");
  const mine = useResource(
    () =>
      myCredentials(
        needing.map((c) => c.id),
        session.value?.user.id ?? "",
      ),
    [connectors.data],
  );
  const columns: Column<Connector>[] = [
    { label: t("displayName"), rowHeader: true, cell: (c) => c.displayName },
    { label: t("registryEntry"), cell: (c) => c.mcpRegistry.name },
    { label: t("serverUrl"), class: "wrap", cell: (c) => <span class="small">{c.serverUrl}</span> },
    {
      label: t("status"),
      cell: (c) => (
        <span class={`status ${c.isEnabled ? "ok" : "muted"}`}>{c.isEnabled ? t("enabled") : t("disabled")}</span>
      ),
    },
    { label: t("authHeaders"), cell: (c) => (c.hasAuthHeaders ? t("stored") : "—") },
    {
      label: t("myCredential"),
      cell: (c) => {
        if (c.mcpRegistry.authKind === "none") return "—";
        const held = mine.data?.get(c.id);
        return (
          <div class="credential-cell">
            <span class={`status ${held ? "ok" : "muted"}`}>
              {mine.data ? (held ? t("credentialSet") : t("credentialNotSet")) : "…"}
            </span>
            <Button
              disabled={!mine.data}
              aria-label={t(held ? "changeCredentialFor" : "setCredentialFor", { name: c.displayName })}
              onClick={() => setCrediting(c)}
            >
              {held ? t("change") : t("set")}
            </Button>
          </div>
        );
      },
    },
  ];
  if (manage)
    columns.push(
      editDeleteColumn<Connector>(t("actions"), crud, {
        edit: (c) => t("editNamed", { name: c.displayName }),
        delete: (c) => t("deleteNamed", { name: c.displayName }),
      }),
    );
  return (
    <ResourceListSection
      id="connectors-title"
      title={t("connectors")}
      action={manage && registry.data && { text: t("addConnector"), run: () => crud.setEditing("new") }}
      intro={t("connectorsIntro")}
      crud={crud}
      columns={columns}
      empty={t("noConnectors")}
      pageSize={20}
      error={connectors.error ?? registry.error ?? mine.error}
      form={
        registry.data &&
        ((connector, close, saved) => (
          <ConnectorForm connector={connector ?? undefined} registry={registry.data!} onClose={close} onSaved={saved} />
        ))
      }
      saved={(c) => t("saved", { name: c.displayName })}
      remove={{
        title: t("deleteConnector"),
        message: (c) => t("deleteConnectorMessage", { name: c.displayName }),
        run: (c) => deleteConnector(c.id),
        done: (c) => t("deleted", { name: c.displayName }),
      }}
    >
      {crediting && (
        <CredentialDialog
          connector={crediting}
          authHint={registry.data?.find((e) => e.id === crediting.mcpRegistryId)?.authHint ?? ""}
          held={mine.data?.get(crediting.id) ?? null}
          onClose={() => setCrediting(null)}
          onChanged={() => mine.reload()}
        />
      )}
    </ResourceListSection>
  );
}
