import { api, unwrap, type Schemas } from "../../api/client";
import { uploadSigned } from "../../components";

export type BatchQa = Schemas["BatchQa"];
export type BatchQaItem = Schemas["BatchQaItem"];

export const listWebChats = () => unwrap(api.GET("/api/v1/web-chats/", { params: { query: { pageSize: 100 } } }));
export const RUNS_PAGE_SIZE = 20;
/** A page of the web chat's runs, newest first. */
export const listRuns = (webChatId: string, page: number) =>
  unwrap(
    api.GET("/api/v1/web-chats/{webchatPk}/batch-qas/", {
      params: { path: { webchatPk: webChatId }, query: { page, pageSize: RUNS_PAGE_SIZE } },
    }),
  );
export const getRun = (webChatId: string, id: string) =>
  unwrap(api.GET("/api/v1/web-chats/{webchatPk}/batch-qas/{id}/", { params: { path: { webchatPk: webChatId, id } } }));

/** Every question of a run, page by page (at most 1,000 per run). */
export async function runItems(webChatId: string, id: string): Promise<BatchQaItem[]> {
  const items: BatchQaItem[] = [];
  for (let page = 1; ; page++) {
    const answer = await unwrap(
      api.GET("/api/v1/web-chats/{webchatPk}/batch-qas/{id}/items/", {
        params: { path: { webchatPk: webChatId, id }, query: { page, pageSize: 100 } },
      }),
    );
    items.push(...answer.results);
    if (!answer.next) return items;
  }
}

/** Uploads the file of questions the way every client does (a signed upload), then starts the run with the stored key.
 * */
export async function startRun(webChatId: string, file: File, onProgress: (share: number) => void): Promise<BatchQa> {
  const key = await uploadSigned(file, { modelName: "batch-qa", fieldName: "file" }, onProgress);
  return unwrap(
    api.POST("/api/v1/web-chats/{webchatPk}/batch-qas/", {
      params: { path: { webchatPk: webChatId } },
      body: { file: key, filename: file.name },
    }),
  );
}

/** The results spreadsheet, fetched with the organization header (a plain link would not carry it). */
export async function exportRun(webChatId: string, id: string): Promise<Blob> {
  return unwrap(
    api.GET("/api/v1/web-chats/{webchatPk}/batch-qas/{id}/export-excel/", {
      params: { path: { webchatPk: webChatId, id } },
      parseAs: "blob",
    }),
  ) as Promise<Blob>;
}
