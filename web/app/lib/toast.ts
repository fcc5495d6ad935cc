/**
 * Toasts (spec §2 Other UI, §8, §9): 2 s, coloured error / success / info, plus a persistent loading
 * toast closed with `.done()`. Messages are already translated text: `toast.success(t("…"))`.
 * Actions can hand a toast to the page: return `{ toast: { type, message } }` and call
 * `useDataToast(actionData)` in the component.
 */
import { useEffect, useRef } from "react";
import { notifications } from "@mantine/notifications";

/** Spec §9: toast 2000 ms. */
export const TOAST_MS = 2000;

export type ToastType = "success" | "error" | "info";

/** Toast colours map to the theme colours of the same name (lib/theme.ts). */
const COLOR: Record<ToastType | "loading", string> = {
  success: "success",
  error: "error",
  info: "info",
  loading: "primary",
};

export interface ToastData {
  type: ToastType;
  message: string;
}

export interface LoadingToast {
  /** Close the loading toast; with a message, replace it by a normal toast of that type. */
  done(message?: string, type?: ToastType): void;
}

/**
 * A failure toast's text: `text`, then the server's reason when it gave one for a write that failed (a
 * full disk: "…: The disk holding the data folder is full…"). Other refusals keep their own wording.
 */
export function failedText(text: string, r: { ok: boolean; error?: string; message?: string }): string {
  return !r.ok && r.error === "failed" && r.message ? `${text}: ${r.message}` : text;
}

let counter = 0;

function show(type: ToastType, message: string): void {
  if (typeof window === "undefined") return; // toasts exist in the browser only
  notifications.show({
    message,
    color: COLOR[type],
    autoClose: TOAST_MS,
    withCloseButton: true,
    // role=alert for errors so screen readers announce them at once; status for the rest.
    role: type === "error" ? "alert" : "status",
    "data-toast": type,
  });
}

export const toast = {
  success: (message: string) => show("success", message),
  error: (message: string) => show("error", message),
  info: (message: string) => show("info", message),
  loading(message: string): LoadingToast {
    const id = `loading-${++counter}`;
    if (typeof window !== "undefined") {
      notifications.show({
        id,
        message,
        color: COLOR.loading,
        loading: true,
        autoClose: false,
        withCloseButton: false,
        role: "status",
        "data-toast": "loading",
      });
    }
    return {
      done(next, type = "success") {
        if (typeof window === "undefined") return;
        notifications.hide(id);
        if (next) show(type, next);
      },
    };
  },
};

/** Show the toast an action or loader returned (`{ toast: ToastData }`), once per new result. */
export function useDataToast(data: unknown): void {
  const t =
    data && typeof data === "object" && "toast" in data ? (data as { toast?: ToastData }).toast : undefined;
  const seen = useRef<unknown>(undefined);
  // After every commit rather than on [data]: fetcher data is not React state, and an effect keyed on it
  // can be dropped (decision 0013). The result object changes with every submission, so the same
  // message shows again when repeated.
  useEffect(() => {
    if (data === seen.current) return;
    seen.current = data;
    if (t?.message) show(t.type, t.message);
  });
}
