/** CopyMeThat: `recipes.html` with one `div.recipe` per recipe, pictures in `images/`. */
import { type Cheerio, load } from "cheerio";
import type { AnyNode } from "domhandler";
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { type Archive, type ReaderContext, dirname, isJunk, linkedEntry } from "../shared/archive.js";
import { cleanRecipe } from "../shared/clean.js";
import { failed, ok, pictureAt, wrongType } from "../shared/entry.js";

const MAX_HTML = 64 * 1024 * 1024;
const BREAK = "\u0001";

/**
 * The text of an element as the page shows it: the export's own indentation collapsed, but a `<br>` or
 * a paragraph inside a step, a note or the description kept as a line break.
 */
function textOf(el: Cheerio<AnyNode>): string {
  const copy = el.clone();
  copy.find("br").replaceWith(BREAK);
  copy.find("p, div").after(BREAK);
  return copy
    .text()
    .replace(/\s+/g, " ")
    .split(BREAK)
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n");
}

export async function* readCopyMeThat(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const page = archive.entries.find((e) => !isJunk(e.path) && /(^|\/)recipes\.html?$/i.test(e.path));
  if (!page) throw wrongType("CopyMeThat", "no recipes.html was found");
  const base = dirname(page.path);
  const $ = load(await archive.readText(page.path, MAX_HTML));
  const recipes = $("div.recipe").toArray();
  if (recipes.length === 0) throw wrongType("CopyMeThat", "recipes.html holds no recipe");
  ctx?.onTotal?.(recipes.length);
  for (const el of recipes) {
    const r = $(el);
    const name = r.find("#name").first().text().trim() || "Untitled";
    try {
      // Headings are `li` in some exports and `div` in others (`<div class="instruction
      // instruction_subheader">` inside the `ol`), so every child of the list is looked at.
      const ingredientObjects: Array<{ title: string | null; note: string }> = [];
      let section: string | null = null;
      r.find("#recipeIngredients")
        .first()
        .children()
        .each((_, child) => {
          const item = $(child);
          const text = item.text().replace(/\s+/g, " ").trim();
          if (!text || item.hasClass("recipeIngredient_spacer")) return;
          if (item.hasClass("recipeIngredient_subheader")) section = text;
          else if (
            item.hasClass("recipeIngredient") ||
            item.hasClass("recipeIngredient_note") ||
            item.is("li")
          ) {
            // A note line among the ingredients ("recipeIngredient_note") is kept as a line of its own.
            ingredientObjects.push({ title: section, note: text });
            section = null;
          }
        });
      const steps: Array<{ title: string; text: string }> = [];
      let stepTitle = "";
      r.find("#recipeInstructions")
        .first()
        .children()
        .each((_, child) => {
          const item = $(child);
          const text = textOf(item);
          if (!text) return;
          if (item.hasClass("instruction_subheader")) stepTitle = text;
          else if (item.hasClass("instruction_next") && steps.length) {
            // A further paragraph of the step before it, not a step of its own.
            steps[steps.length - 1].text += `\n${text}`;
          } else if (item.hasClass("instruction") || item.hasClass("instruction_next") || item.is("li")) {
            steps.push({ title: stepTitle, text });
            stepTitle = "";
          }
        });
      const servings = r.find("#recipeYield").first();
      const time = (key: string) => r.find(`[meta="${key}"], #${key}`).first().text().trim() || undefined;
      const recipe = cleanRecipe({
        name,
        description: textOf(r.find("#description").first()),
        // Some exports give "Servings: 4" with no `#recipeYield` inside.
        recipeYield: servings.length
          ? servings.text()
          : r
              .find("#servings")
              .first()
              .text()
              .replace(/^\s*servings\s*:?/i, ""),
        ingredientObjects,
        tags: r
          .find(".recipeCategory")
          .toArray()
          .map((t) => $(t).text()),
        orgURL: r.find("#original_link").attr("href"),
        notes: r
          .find(".recipeNote")
          .toArray()
          .map((n) => textOf($(n))),
        rating: r.find("#ratingValue").first().text(),
        lastMade: r.find("#made_this").length ? new Date().toISOString() : undefined,
        prepTime: time("prepTime"),
        performTime: time("cookTime"),
        totalTime: time("totalTime"),
      });
      // Set after cleaning: clean_string would undo the line breaks kept inside a step.
      recipe.recipeInstructions = steps;
      const src = r.find("img.recipeImage").attr("src");
      let image = null;
      if (src && !/^[a-z]+:/i.test(src)) {
        const path = linkedEntry(archive, base, src);
        if (path) image = await pictureAt(archive, path);
      } else if (src) image = { url: src };
      yield ok(recipe, { image, sourceId: recipe.orgURL ? null : `copymethat:${name}` });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
