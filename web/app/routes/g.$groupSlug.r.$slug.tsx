/** /g/:groupSlug/r/:slug: the recipe page (read-only for now; ?edit=true is a later issue). */
import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Chips } from "../components/Chips.js";
import { RecipeBody } from "../components/RecipeBody.js";
import { RecipeImage } from "../components/RecipeImage.js";
import { ClockIcon, ServingsIcon } from "../components/icons.js";
import { coreCall } from "../lib/errors.server.js";
import { NUTRITION_ROWS, withUnit, yieldText } from "../lib/format.js";
import { renderMarkdown, sanitizeIngredientText } from "../lib/markdown.js";
import { requireGroupMember } from "../lib/session.server.js";
import { recipeJsonLd, recipeOpenGraph } from "../lib/structured-data.server.js";

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "page not found" }];
  return [{ title: `${data.recipe.name} | Larder` }, ...data.og, { "script:ld+json": data.ld }];
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { actor, groupSlug } = await requireGroupMember(request, context, params.groupSlug);
  const slug = params.slug ?? "";
  const recipe = await coreCall(() => context.larder.recipes.get(actor, slug));
  const url = new URL(request.url);
  const path = `/g/${groupSlug}/r/${encodeURIComponent(recipe.slug)}`;
  // Reached by id or an old slug: answer on the canonical address.
  if (recipe.slug !== slug) throw redirect(path + url.search);

  const sections: { title: string | null; items: { key: string; html: string }[] }[] = [];
  recipe.recipeIngredient.forEach((ing, i) => {
    const html = sanitizeIngredientText(ing.display || ing.note || ing.originalText || "");
    if (ing.title || sections.length === 0) sections.push({ title: ing.title || null, items: [] });
    if (html) sections[sections.length - 1].items.push({ key: ing.referenceId || String(i), html });
  });

  const times = [
    { label: "Total", value: recipe.totalTime },
    { label: "Prep", value: recipe.prepTime },
    { label: "Cook", value: recipe.performTime || recipe.cookTime },
  ].filter((t): t is { label: string; value: string } => !!t.value);

  const nutrition = NUTRITION_ROWS.flatMap(([key, label, unit]) => {
    const v = recipe.nutrition?.[key];
    return v != null && String(v).trim() ? [{ label, value: withUnit(String(v), unit) }] : [];
  });

  const meta = { recipe, origin: url.origin, url: url.origin + path };
  return {
    groupSlug,
    ld: recipeJsonLd(meta),
    og: recipeOpenGraph(meta),
    recipe: {
      id: recipe.id,
      slug: recipe.slug,
      name: recipe.name,
      image: recipe.image,
      descriptionHtml: renderMarkdown(recipe.description),
      orgURL: recipe.orgURL && /^https?:\/\//i.test(recipe.orgURL) ? recipe.orgURL : null,
      times,
      ...yieldText(recipe),
      tags: recipe.tags.map(({ name, slug }) => ({ name, slug })),
      categories: recipe.recipeCategory.map(({ name, slug }) => ({ name, slug })),
      tools: recipe.tools.map(({ name, slug }) => ({ name, slug })),
      sections: sections.filter((s) => s.items.length > 0 || s.title),
      steps: recipe.recipeInstructions.map((s, i) => ({
        key: s.id || String(i),
        title: s.title || null,
        summary: s.summary || null,
        html: renderMarkdown(s.text),
      })),
      notes: recipe.notes.map((n, i) => ({ key: String(i), title: n.title, html: renderMarkdown(n.text) })),
      nutrition,
    },
  };
}

export type RecipePageData = Awaited<ReturnType<typeof loader>>["recipe"];

export default function RecipePage() {
  const { recipe, groupSlug } = useLoaderData<typeof loader>();
  const facts = [...recipe.times.map((t) => ({ icon: "clock", label: t.label, value: t.value }))];
  if (recipe.servings) facts.push({ icon: "servings", label: "Servings", value: recipe.servings });
  if (recipe.yield) facts.push({ icon: "servings", label: "Yield", value: recipe.yield });

  return (
    <article className="recipe">
      <header className="recipe__hero">
        <div className="recipe__intro">
          <h1 className="recipe__title">{recipe.name}</h1>
          {recipe.descriptionHtml ? (
            <div
              className="recipe__description prose"
              dangerouslySetInnerHTML={{ __html: recipe.descriptionHtml }}
            />
          ) : null}
          {facts.length ? (
            <dl className="facts">
              {facts.map((f) => (
                <div className="fact" key={f.label}>
                  <dt>
                    {f.icon === "clock" ? <ClockIcon /> : <ServingsIcon />}
                    {f.label}
                  </dt>
                  <dd>{f.value}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          <div className="recipe__organizers">
            <Chips items={recipe.categories} groupSlug={groupSlug} param="categories" label="Categories" />
            <Chips items={recipe.tags} groupSlug={groupSlug} param="tags" label="Tags" />
          </div>
          {recipe.orgURL ? (
            <p className="recipe__source">
              <a href={recipe.orgURL} target="_blank" rel="noopener noreferrer nofollow">
                Original recipe
              </a>
            </p>
          ) : null}
        </div>
        <RecipeImage
          recipeId={recipe.id}
          image={recipe.image}
          size="original"
          alt={recipe.name}
          className="recipe__image"
          eager
        />
      </header>
      <RecipeBody recipe={recipe} groupSlug={groupSlug} />
    </article>
  );
}
