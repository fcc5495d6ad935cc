import { describe, expect, it } from "vitest";
import { enterSubmits } from "./AppDialog.js";

/** Just what enterSubmits reads of an element (the unit tests run without a DOM). */
function el(tagName: string, attrs: Record<string, string> = {}, isContentEditable = false) {
  return {
    tagName,
    isContentEditable,
    getAttribute: (name: string) => attrs[name] ?? null,
  } as unknown as EventTarget;
}

describe("Enter in a dialog", () => {
  it("submits from a one-line text field", () => {
    expect(enterSubmits(el("INPUT"))).toBe(true);
    expect(enterSubmits(el("INPUT", { type: "email" }))).toBe(true);
    expect(enterSubmits(el("INPUT", { type: "url" }))).toBe(true);
  });

  it("does not submit when focus is anywhere else", () => {
    expect(enterSubmits(null)).toBe(false);
    expect(enterSubmits(el("DIV", { role: "dialog" }))).toBe(false);
    expect(enterSubmits(el("BUTTON"))).toBe(false);
    expect(enterSubmits(el("A"))).toBe(false);
    expect(enterSubmits(el("TEXTAREA"))).toBe(false);
    expect(enterSubmits(el("INPUT", { type: "checkbox" }))).toBe(false);
    expect(enterSubmits(el("INPUT", { type: "radio" }))).toBe(false);
    expect(enterSubmits(el("INPUT", { type: "file" }))).toBe(false);
    expect(enterSubmits(el("DIV", {}, true))).toBe(false);
  });

  it("leaves Enter to an open picker list (it picks the option)", () => {
    expect(enterSubmits(el("INPUT", { "aria-expanded": "true" }))).toBe(false);
    expect(enterSubmits(el("INPUT", { "aria-expanded": "false" }))).toBe(true);
  });
});
