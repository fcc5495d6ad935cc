import { describe, expect, it } from "vitest";
import { apiMessageLanguage, localizeErrorBody, translateApiMessage } from "./api-messages.js";

describe("API error messages by Accept-Language", () => {
  it("picks a catalogue by quality, exact tag then language, and English for anything else", () => {
    expect(apiMessageLanguage("de-AT, en;q=0.5")).toBe("de-DE");
    expect(apiMessageLanguage("ja;q=1, ar;q=0.8")).toBe("ar-SA");
    expect(apiMessageLanguage("en-US, de;q=0.9")).toBeNull();
    expect(apiMessageLanguage("*")).toBeNull();
    expect(apiMessageLanguage(undefined)).toBeNull();
    expect(apiMessageLanguage("fr;q=0")).toBeNull();
  });

  it("translates known messages without case and keeps unknown ones in English", () => {
    expect(translateApiMessage("Group not found", "fr-FR")).toBe("Groupe introuvable");
    expect(translateApiMessage("group not found", "fr-FR")).toBe("Groupe introuvable");
    expect(translateApiMessage("Something only Larder says", "nl-NL")).toBe("Something only Larder says");
  });

  it("keeps a value in a message and isolates it in right-to-left text", () => {
    expect(translateApiMessage('A recipe named "pad-thai" already exists', "de-DE")).toBe(
      "Ein Rezept namens „pad-thai“ existiert bereits",
    );
    expect(translateApiMessage("String should have at least 8 characters", "ar-SA")).toBe(
      "يجب ألا يقل عن \u20688\u2069 حرفًا",
    );
  });

  it("localizes each of Mealie's error shapes and nothing else", () => {
    expect(localizeErrorBody({ detail: "Not Found" }, "es-ES")).toEqual({ detail: "No encontrado" });
    expect(
      localizeErrorBody({ detail: { message: "Permission Denied", error: true, exception: null } }, "he-IL"),
    ).toEqual({ detail: { message: "הגישה נדחתה", error: true, exception: null } });
    const issue = { type: "missing", loc: ["body", "name"], msg: "Field required", input: null };
    expect(localizeErrorBody({ detail: [issue] }, "nl-NL")).toEqual({
      detail: [{ ...issue, msg: "Veld verplicht" }],
    });
    expect(localizeErrorBody({ detail: "Not Found" }, null)).toEqual({ detail: "Not Found" });
    expect(localizeErrorBody({ detail: { details: "BAD_RECIPE_DATA" } }, "de-DE")).toEqual({
      detail: { details: "BAD_RECIPE_DATA" },
    });
  });
});
