/**
 * The Markdown body of a recipe file: description, `## Ingredients`, `## Instructions`, `## Notes`, and any
 * other `## Section` kept as a note. Reading is line-based and tolerant of hand edits (other list markers,
 * missing blank lines, stray lines); nothing a person wrote is dropped. Writing is canonical: reading it
 * back gives the same recipe and writing that again gives the same bytes.
 */
import type { RecipeNote } from "../../schemas/recipe.js";
import type { DocIngredient, DocStep, Vocabulary } from "../doc.js";
import { formatIngredientLine, parseIngredientLine } from "./ingredient-line.js";
import { fenceLike, fencedLines } from "./fences.js";
import {
  boldInner,
  escapeLine,
  headingLike,
  normaliseBlock,
  normaliseLine,
  stepFirstLineLike,
  stepLineLike,
  unescapeLine,
} from "./text.js";

export interface RecipeBody {
  description: string;
  ingredients: DocIngredient[];
  instructions: DocStep[];
  notes: RecipeNote[];
  /** Text of a leading `# Heading` line, when asked for (a hand-made file without a `name`). */
  title: string | null;
}

type SectionKind = "ingredients" | "instructions" | "notes" | "other";
const SECTION_NAMES: Record<string, SectionKind> = {
  ingredients: "ingredients",
  ingredient: "ingredients",
  instructions: "instructions",
  instruction: "instructions",
  directions: "instructions",
  method: "instructions",
  steps: "instructions",
  preparation: "instructions",
  notes: "notes",
  note: "notes",
};

// Headings count only at column 0, so indented step lines never end a section.
const H2 = /^##(?!#)(?:[ \t]+(.*?))?[ \t]*$/s;
const H3 = /^###(?!#)(?:[ \t]+(.*?))?[ \t]*$/s;
const H1 = /^#[ \t]+(.+?)[ \t]*$/s;
const INGREDIENT_MARKER = /^\s*(?:[-*+•]|\d+[.)])(?:[ \t]+(.*))?$/s;
const STEP_MARKER = /^(\d+[.)]|[-*+•])(?:[ \t]+(.*))?$/s;
const USES = /^↳[ \t]*uses[ \t]+(\d+(?:[ \t]*,[ \t]*\d+)*)[ \t]*$/i;

const isBlank = (l: string): boolean => l.trim() === "";
const h3At = (line: string): RegExpExecArray | null => (line.startsWith("###") ? H3.exec(line) : null);

interface Section {
  kind: SectionKind;
  heading: string;
  lines: string[];
}

/** Reads the body. `takeTitle`: a leading `# Heading` names the recipe instead of starting the description. */
export function parseBody(body: string, vocab: Vocabulary, opts: { takeTitle?: boolean } = {}): RecipeBody {
  const description: string[] = [];
  const sections: Section[] = [];
  const lines = body.split("\n");
  const fenced = fencedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h2 = line.startsWith("##") && !fenced?.[i] ? H2.exec(line) : null;
    if (h2) {
      const heading = normaliseLine(h2[1] ?? "");
      sections.push({ kind: SECTION_NAMES[heading.toLowerCase()] ?? "other", heading, lines: [] });
    } else if (sections.length) sections[sections.length - 1].lines.push(line);
    else description.push(line);
  }

  let title: string | null = null;
  if (opts.takeTitle) {
    const first = description.findIndex((l) => !isBlank(l));
    const h1 = first >= 0 ? H1.exec(description[first]) : null;
    if (h1) {
      title = normaliseLine(h1[1]);
      description.splice(0, first + 1);
    }
  }

  const out: RecipeBody = {
    description: readBlock(description),
    ingredients: [],
    instructions: [],
    notes: [],
    title,
  };
  for (const s of sections) {
    if (s.kind === "ingredients") out.ingredients.push(...readIngredients(s.lines, vocab));
    else if (s.kind === "instructions") out.instructions.push(...readSteps(s.lines));
    else if (s.kind === "notes") out.notes.push(...readNotes(s.lines));
    else out.notes.push({ title: s.heading, text: readBlock(s.lines) });
  }
  return out;
}

/** What reads as structure in a description or a note: a heading, or a fence line left unpaired. */
const blockStructure = (l: string): boolean => headingLike(l) || fenceLike(l);

function readBlock(lines: string[]): string {
  return normaliseBlock(lines.map((l) => unescapeLine(l, blockStructure)).join("\n"));
}

function readIngredients(lines: string[], vocab: Vocabulary): DocIngredient[] {
  type Item = { title: string | null; text: string };
  const items: Item[] = [];
  let pendingTitle: string | null = null;
  let last: Item | null = null;
  let prevBlank = true;
  const add = (text: string): Item => {
    const item = { title: pendingTitle, text };
    items.push(item);
    pendingTitle = null;
    return item;
  };
  for (const line of lines) {
    if (isBlank(line)) {
      prevBlank = true;
      continue;
    }
    const h3 = h3At(line);
    const marker = h3 ? null : INGREDIENT_MARKER.exec(line);
    if (h3) {
      // A title with nothing under it is kept on an empty ingredient rather than lost.
      if (pendingTitle !== null) add("");
      pendingTitle = normaliseLine(h3[1] ?? "") || null;
      last = null;
    } else if (marker) last = add((marker[1] ?? "").trim());
    else if (last !== null && !prevBlank && /^\s/.test(line)) {
      // A wrapped line continues the ingredient above it.
      last.text = `${last.text} ${line.trim()}`;
    } else last = add(line.trim());
    prevBlank = false;
  }
  if (pendingTitle !== null) add("");
  return items.map((it) => ({ ...parseIngredientLine(it.text, vocab), title: it.title }));
}

interface RawStep {
  title: string | null;
  first: string;
  /** Continuation lines, de-indented; "" for blank lines inside the step. */
  rest: string[];
  indent: number;
}

function deindent(line: string, width: number): string {
  if (line.startsWith("\t")) return line.slice(1);
  let i = 0;
  while (i < width && line[i] === " ") i++;
  return line.slice(i);
}

function readSteps(lines: string[]): DocStep[] {
  const raw: RawStep[] = [];
  let pendingTitle: string | null = null;
  let cur: RawStep | null = null;
  let blanks = 0;
  const start = (first: string, indent: number): RawStep => {
    const step: RawStep = { title: pendingTitle, first, rest: [], indent };
    raw.push(step);
    pendingTitle = null;
    blanks = 0;
    return step;
  };
  for (const line of lines) {
    if (isBlank(line)) {
      blanks++;
      continue;
    }
    const h3 = h3At(line);
    if (h3) {
      if (pendingTitle !== null) start("", 3);
      pendingTitle = normaliseLine(h3[1] ?? "") || null;
      cur = null;
      continue;
    }
    const m = STEP_MARKER.exec(line);
    if (m) {
      cur = start(m[2] ?? "", m[1].length + 1);
    } else if (cur !== null && (/^\s/.test(line) || blanks === 0)) {
      // Indented lines continue the step, and so does a line right below it (Markdown's lazy continuation).
      for (; blanks > 0; blanks--) cur.rest.push("");
      cur.rest.push(/^\s/.test(line) ? deindent(line, cur.indent) : line);
    } else {
      // An unnumbered paragraph after a blank line is a step of its own.
      cur = start(line.trim(), 3);
    }
    blanks = 0;
  }
  if (pendingTitle !== null) start("", 3);
  return raw.map(finishStep);
}

function finishStep(r: RawStep): DocStep {
  const rest = [...r.rest];
  let ingredientRefs: number[] = [];
  const uses = rest.length ? USES.exec(rest[rest.length - 1]) : null;
  if (uses) {
    ingredientRefs = uses[1]
      .split(",")
      .map((n) => Number(n.trim()) - 1)
      .filter((n) => n >= 0);
    rest.pop();
  }
  const inner = boldInner(r.first);
  let summary: string | null = null;
  let textLines: string[];
  if (inner !== null) {
    summary = normaliseLine(inner) || null;
    textLines = rest.map((l) => unescapeLine(l, stepLineLike));
  } else {
    textLines = [unescapeLine(r.first, stepFirstLineLike), ...rest.map((l) => unescapeLine(l, stepLineLike))];
  }
  return { title: r.title, summary, text: normaliseBlock(textLines.join("\n")), ingredientRefs };
}

function readNotes(lines: string[]): RecipeNote[] {
  const notes: { title: string; lines: string[] }[] = [];
  let cur: { title: string; lines: string[] } | null = null;
  const fenced = fencedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h3 = fenced?.[i] ? null : h3At(line);
    if (h3) {
      cur = { title: normaliseLine(h3[1] ?? ""), lines: [] };
      notes.push(cur);
    } else if (cur) cur.lines.push(line);
    else if (!isBlank(line)) {
      // Text under `## Notes` before any `### Title` is an untitled note.
      cur = { title: "", lines: [line] };
      notes.push(cur);
    }
  }
  return notes.map((n) => ({ title: n.title, text: readBlock(n.lines) }));
}

// ---- writing ----

const oneLine = (s: string): string => s.replace(/[\r\n]+/g, " ");
const heading3 = (title: string): string => (title ? `### ${oneLine(title)}` : "###");
/**
 * A description or a note as written: a line that would read as structure is escaped, except inside a
 * fenced code block, where only a line that already starts with a backslash gets one more (reading
 * removes one from every such line), so code reads back exactly as it was.
 */
function writeBlock(text: string): string {
  const lines = text.split("\n");
  const fenced = fencedLines(lines);
  return lines
    .map((l, i) => (fenced?.[i] && !l.startsWith("\\") ? l : escapeLine(l, blockStructure)))
    .join("\n");
}

function writeStep(step: DocStep, index: number): string {
  const marker = `${index + 1}.`;
  const indent = " ".repeat(marker.length + 1);
  const textLines = step.text === "" ? [] : step.text.split("\n");
  let first: string;
  const rest: string[] = [];
  if (step.summary) {
    first = `**${oneLine(step.summary)}**`;
    rest.push(...textLines.map((l) => escapeLine(l, stepLineLike)));
  } else {
    first = textLines.length ? escapeLine(textLines[0], stepFirstLineLike) : "";
    rest.push(...textLines.slice(1).map((l) => escapeLine(l, stepLineLike)));
  }
  if (step.ingredientRefs.length) rest.push(`↳ uses ${step.ingredientRefs.map((r) => r + 1).join(", ")}`);
  return [first ? `${marker} ${first}` : marker, ...rest.map((l) => (l === "" ? "" : indent + l))].join("\n");
}

/** Writes the body in canonical form ("" when the recipe has no body content). */
export function serializeBody(
  doc: { description: string; ingredients: DocIngredient[]; instructions: DocStep[]; notes: RecipeNote[] },
  vocab: Vocabulary,
): string {
  const blocks: string[] = [];
  if (doc.description) blocks.push(writeBlock(doc.description));
  if (doc.ingredients.length) {
    blocks.push("## Ingredients");
    let run: string[] = [];
    for (const ing of doc.ingredients) {
      if (ing.title) {
        if (run.length) blocks.push(run.join("\n"));
        run = [];
        blocks.push(heading3(ing.title));
      }
      const line = oneLine(formatIngredientLine(ing, vocab));
      run.push(line ? `- ${line}` : "-");
    }
    if (run.length) blocks.push(run.join("\n"));
  }
  if (doc.instructions.length) {
    blocks.push("## Instructions");
    doc.instructions.forEach((step, i) => {
      if (step.title) blocks.push(heading3(step.title));
      blocks.push(writeStep(step, i));
    });
  }
  if (doc.notes.length) {
    blocks.push("## Notes");
    for (const note of doc.notes) {
      blocks.push(heading3(note.title));
      if (note.text) blocks.push(writeBlock(note.text));
    }
  }
  return blocks.length ? `${blocks.join("\n\n")}\n` : "";
}
