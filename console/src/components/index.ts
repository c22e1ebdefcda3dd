// The shared kit of every page. main.tsx imports it whole, so it ships with the shell: a page's
// chunk then holds only the page and loads in one request (no chain of shared chunks).
export { ErrorAlert, FormError, Loading, Notice } from "./alert";
export { announce } from "./announcer";
export { Button } from "./button";
export { CheckList, pickedIds } from "./check-list";
export { ConfirmDialog, RemoveDialog, useRemoval, type Removal } from "./confirm";
export { CopyButton } from "./copy-button";
export { DataTable, type Column } from "./data-table";
export { ActionDialog, Dialog } from "./dialog";
export { FormDialog, PageForm, SaveBar, type Submitting } from "./form-dialog";
export {
  CheckboxField,
  FormProblem,
  NewPasswordFields,
  SelectField,
  TextAreaField,
  TextField,
  fieldsOf,
} from "./field";
export { GroupPicker, pickedGroups } from "./group-picker";
export { InboxCreateDialog } from "./inbox-dialog";
export { LanguagePicker } from "./language-picker";
export { ResourceListPage, ResourceListSection } from "./resource-list-page";
export { Markdown } from "./markdown";
export { firstAvailable, modelOption, unavailableReason, type Availability, type ModelLike } from "./model-choice";
export { PageHeader, Section, SectionHead } from "./page-header";
export { ListBody, ListSearch, ResourceList, SEARCH_DELAY_MS, useCrudList, type ListPage } from "./resource-list";
export { actionsColumn, deleteAction, editAction, editDeleteColumn, linkColumn, type RowAction } from "./row-actions";
export { SecretDialog } from "./secret-dialog";
export { FileField, UploadDialog, UploadProgress, uploadForm, uploadSigned } from "./upload";
export { Pager } from "./pager";
export { Toasts, dismissToast, toast } from "./toast";
export { t as common } from "./strings";
export { useLatest, usePagedResource, useResource, type Resource } from "./use-resource";
export { useAction } from "./use-action";
export { useSubmit } from "./use-submit";
