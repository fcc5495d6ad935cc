/**
 * A fetcher for one intent of the page's action, with what the admin dialogs need: the latest result,
 * a busy flag, its toast shown once, and `onDone` called once per successful result (to close a
 * dialog). Fetcher data is not React state, so the check runs after every commit (decision 0013).
 */
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { FormResult } from "../../lib/admin.server.js";
import { useDataToast } from "../../lib/toast.js";

export type Values = Record<string, string | number | boolean>;

export function useFormAction<T = unknown>(onDone?: (result: FormResult<T>) => void, action?: string) {
  const fetcher = useFetcher<FormResult<T>>();
  const result = fetcher.data;
  useDataToast(result);
  const seen = useRef<unknown>(undefined);
  useEffect(() => {
    if (result === seen.current) return;
    seen.current = result;
    if (result?.ok) onDone?.(result);
  });
  return {
    fetcher,
    result,
    busy: fetcher.state !== "idle",
    submit: (intent: string, values: Values = {}) =>
      fetcher.submit({ intent, ...values }, { method: "post", ...(action ? { action } : {}) }),
  };
}
