import { useState } from "preact/hooks";
import { problemOf, type ApiProblem } from "../api/client";

/** A form's submit state: what FormDialog and PageForm take as `submitting`. */
export interface Submit {
  busy: boolean;
  problem: ApiProblem | null;
  submit: (event: SubmitEvent) => void;
}

/**
 * A form's submit: `save` runs with the form's data, `busy` meanwhile; the API's problem is kept
 * for the form to show at its fields (`problem.field(name)`), and cleared by the next submit. Any
 * other error (a bug in `save`) is thrown on.
 */
export function useSubmit(save: (form: FormData) => Promise<void>): Submit {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setProblem(null);
    try {
      await save(form);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, submit };
}
