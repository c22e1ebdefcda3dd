/**
 * The fields of `values` that are set: in a PATCH an absent (undefined) field keeps its stored value, while null
 * clears it, so only undefined ones are dropped.
 */
export const definedFields = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
