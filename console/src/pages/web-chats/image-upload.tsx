import { useState } from "preact/hooks";
import { problemOf } from "../../api/client";
import { uploadSigned, UploadProgress, announce, toast } from "../../components";
import { patchWebChat } from "./api";
import type { WebChat } from "./draft";
import { t } from "./strings";

/** The image fields allowed-file-specs has for web chats: they take an uploaded file. */
export const UPLOADABLE = ["avatar", "logo"] as const;
export type Uploadable = (typeof UPLOADABLE)[number];

/**
 * The API's upload flow: a signed upload for the field (modelName web-chat), the file posted to it
 * with its progress, then the key saved in the web chat, which answers with the image's public URL.
 */
async function uploadImage(
  chatId: string,
  field: Uploadable,
  file: File,
  onProgress: (share: number) => void,
): Promise<WebChat> {
  const key = await uploadSigned(file, { modelName: "web-chat", fieldName: field }, onProgress);
  return patchWebChat(chatId, { [field]: key });
}

/** A button choosing an image file for `field`, saved at once (as the organization's logos are); its problem shows
 * under it. */
export function ImageUpload({
  chatId,
  field,
  label,
  onSaved,
}: {
  chatId: string;
  field: Uploadable;
  label: string;
  onSaved: (chat: WebChat) => void;
}) {
  const [share, setShare] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const choose = async (file: File) => {
    setError(null);
    setShare(0);
    try {
      onSaved(await uploadImage(chatId, field, file, setShare));
      toast(t("imageUploaded", { name: label }));
    } catch (err) {
      // The save names the field; the signing's detail says which rule of the spec the file breaks.
      const problem = problemOf(err);
      const message = problem.field(field) ?? problem.detail;
      setError(message);
      announce(message, true);
    } finally {
      setShare(null);
    }
  };
  const errorId = `${field}-upload-error`;
  return (
    <div class="image-upload">
      <label class="btn secondary file-button">
        {t("uploadImage", { name: label })}
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif"
          class="sr-only"
          disabled={share !== null}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = "";
            if (file) void choose(file);
          }}
        />
      </label>
      <UploadProgress share={share} label={t("uploadingImage", { name: label })} />
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
