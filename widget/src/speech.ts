// Speech (enableSpeech): the visitor's message dictated (the browser's SpeechRecognition, where it
// exists) and a reply read aloud (speechSynthesis), both in the widget's language (speechLanguage):
// left unset, the browser would take the host page's language or its own, not the one the visitor reads.
import { h, icon } from "./dom";
import { speechLanguage, t } from "./i18n";

interface SpeechRecognitionLike {
  lang: string;
  interimResults: boolean;
  onresult: (e: { results: { 0: { transcript: string } }[] }) => void;
  onend: () => void;
  start(): void;
}

/** The browser's speech recognition, if it has one. */
const recognition = () =>
  ((window as unknown as { SpeechRecognition?: unknown; webkitSpeechRecognition?: unknown }).SpeechRecognition ??
    (window as unknown as { webkitSpeechRecognition?: unknown }).webkitSpeechRecognition) as
    | (new () => SpeechRecognitionLike)
    | undefined;

/** The composer's microphone button (null where the browser cannot listen): what is said is added to `input`. */
export function micButton(input: HTMLTextAreaElement): HTMLElement | null {
  const Recognition = recognition();
  if (!Recognition) return null;
  const mic: HTMLElement = h(
    "button",
    {
      class: "mic",
      type: "button",
      "aria-label": t("speak"),
      "aria-pressed": "false",
      onclick: () => listen(Recognition, mic, input),
    },
    icon("mic"),
  );
  return mic;
}

function listen(Recognition: new () => SpeechRecognitionLike, button: HTMLElement, input: HTMLTextAreaElement) {
  const rec = new Recognition();
  rec.lang = speechLanguage();
  rec.interimResults = false;
  button.setAttribute("aria-pressed", "true");
  rec.onresult = (e) => {
    input.value = (input.value ? `${input.value} ` : "") + e.results[0][0].transcript;
    // As typed words are: the box grows to them, the team sees the visitor typing, the words are kept unsent.
    input.dispatchEvent(new Event("input"));
    input.focus();
  };
  rec.onend = () => button.setAttribute("aria-pressed", "false");
  rec.start();
}

/** Reads a reply aloud, without its citation markers. */
export const readAloudButton = (content: string) =>
  h(
    "button",
    {
      type: "button",
      "aria-label": t("readAloud"),
      onclick: () => {
        speechSynthesis.cancel();
        const utterance = new SpeechSynthesisUtterance(content.replace(/\[\d+\]/g, ""));
        utterance.lang = speechLanguage();
        speechSynthesis.speak(utterance);
      },
    },
    icon("speak"),
  );
