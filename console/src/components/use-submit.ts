import { useEffect, useRef } from "preact/hooks";
import type { ApiProblem } from "../api/client";
import { focusRefusal } from "./refusal-focus";
import { useAction } from "./use-action";

/** A form's submit state: what FormDialog and PageForm take as `submitting`. */
export interface Submit {
  busy: boolean;
  problem: ApiProblem | null;
  submit: (event: SubmitEvent) => void;
  /** Forgets the problem (the form changed so that it no longer applies). */
  clear: () => void;
}

/**
 * A form's submit: `save` runs with the form's data (a useAction), `busy` meanwhile; the API's problem is kept
 * for the form to show at its fields (`problem.field(name)`), and cleared by the next submit. A refusal, once shown,
 * takes the focus (focusRefusal): every form of the console submits through here, so each keeps the person's place.
 * `save` may throw an ApiProblem of its own (a check made in the page) to be shown and focused the same way.
 */
export function useSubmit(save: (form: FormData) => Promise<void>): Submit {
  const { busy, problem, run, clear } = useAction(save);
  const sent = useRef<{ form: HTMLFormElement; by: Element | null } | null>(null);
  // After the render that shows the problem: its fields are marked and its alert is there.
  useEffect(() => {
    if (problem && sent.current) focusRefusal(sent.current.form, sent.current.by);
  }, [problem]);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    sent.current = { form, by: event.submitter };
    return run(new FormData(form));
  };
  return { busy, problem, submit, clear };
}
