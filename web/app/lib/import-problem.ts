/**
 * Why an import failed, as the create screens say it (the URL screen and each row of a bulk import).
 * `detail` carries what the words need: the page's status, or the type of what the address holds.
 */
export type ImportProblem =
  "required" | "noRecipe" | "timeout" | "unreachable" | "pageStatus" | "notAPage" | "other";

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The sentence for a failed import; `t` reads the "recipe" namespace. */
export function importProblemText(t: Translate, problem: ImportProblem, detail: string | null): string {
  switch (problem) {
    case "noRecipe":
      return t("import.noRecipe");
    case "timeout":
      return t("import.timeout");
    case "unreachable":
      return t("import.unreachable");
    case "pageStatus":
      return t("import.pageStatus", { status: detail ?? "" });
    case "notAPage":
      return t("import.notAPage", { type: detail ?? "" });
    default:
      return detail ?? t("import.failed");
  }
}
