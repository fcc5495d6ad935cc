/** CopyMeThat: `recipes.html` with one `div.recipe` per recipe, pictures in `images/`. */
import { load } from "cheerio";
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { type Archive, type ReaderContext, dirname, isJunk } from "../shared/archive.js";
import { cleanRecipe } from "../shared/clean.js";
import { failed, MAX_IMAGE_BYTES, ok, wrongType } from "../shared/entry.js";

const MAX_HTML = 64 * 1024 * 1024;

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
      const ingredientObjects: Array<{ title: string | null; note: string }> = [];
      let section: string | null = null;
      r.find("#recipeIngredients li").each((_, li) => {
        const item = $(li);
        if (item.hasClass("recipeIngredient_subheader")) section = item.text().trim() || null;
        else if (item.hasClass("recipeIngredient")) {
          ingredientObjects.push({ title: section, note: item.text().replace(/\s+/g, " ").trim() });
          section = null;
        }
      });
      const steps: Array<{ title: string; text: string }> = [];
      let stepTitle = "";
      r.find("#recipeInstructions li").each((_, li) => {
        const item = $(li);
        if (item.hasClass("instruction_subheader")) stepTitle = item.text().trim();
        else if (item.hasClass("instruction")) {
          const text = item
            .text()
            .replace(/[ \t]+/g, " ")
            .trim();
          if (text) steps.push({ title: stepTitle, text });
          stepTitle = "";
        }
      });
      const recipe = cleanRecipe({
        name,
        description: r.find("#description").first().text(),
        recipeYield: r.find("#recipeYield").first().text(),
        ingredientObjects,
        tags: r
          .find(".recipeCategory")
          .toArray()
          .map((t) => $(t).text()),
        orgURL: r.find("#original_link").attr("href"),
        notes: r
          .find(".recipeNote")
          .toArray()
          .map((n) => $(n).text().trim()),
        rating: r.find("#ratingValue").first().text(),
        lastMade: r.find("#made_this").length ? new Date().toISOString() : undefined,
      });
      recipe.recipeInstructions = steps;
      const src = r.find("img.recipeImage").attr("src");
      let image = null;
      if (src && !/^[a-z]+:/i.test(src)) {
        const path = [base, decodeURI(src).replace(/^\.?\//, "")].filter(Boolean).join("/");
        if (archive.has(path)) image = { bytes: await archive.read(path, MAX_IMAGE_BYTES), path };
      } else if (src) image = { url: src };
      yield ok(recipe, { image, sourceId: recipe.orgURL ? null : `copymethat:${name}` });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
