import { useState } from "preact/hooks";
import type { ApiProblem } from "../api/client";

/**
 * A form's submit: `save` runs with the form's data, `busy` meanwhile; the API's problem is kept
 * for the form to show at its fields (`problem.field(name)`), and cleared by the next submit.
 */
export function useSubmit(save: (form: FormData) => Promise<void>) {
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
      setProblem(err as ApiProblem);
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, submit };
}
