import type { ApiProblem } from "../api/client";
import { useAction } from "./use-action";

/** A form's submit state: what FormDialog and PageForm take as `submitting`. */
export interface Submit {
  busy: boolean;
  problem: ApiProblem | null;
  submit: (event: SubmitEvent) => void;
}

/**
 * A form's submit: `save` runs with the form's data (a useAction), `busy` meanwhile; the API's problem is kept
 * for the form to show at its fields (`problem.field(name)`), and cleared by the next submit.
 */
export function useSubmit(save: (form: FormData) => Promise<void>): Submit {
  const { busy, problem, run } = useAction(save);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    return run(new FormData(event.currentTarget as HTMLFormElement));
  };
  return { busy, problem, submit };
}
