/**
 * The recipe page (spec §2, §4): VIEW, COOK or EDIT. Edit mode lives in the URL (`?edit=true`), so it
 * survives a reload and the back button leaves it; cook mode toggles with view; the servings scale and
 * print preferences are the reader's own. Printing prints this page: print.css hides everything marked
 * `no-print` and lays the recipe out as the print preferences say.
 */
import { Suspense, lazy, startTransition, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useNavigate } from "react-router";
import { Group, Loader, SegmentedControl } from "@mantine/core";
import { Chips } from "../Chips.js";
import { RecipeImage } from "../RecipeImage.js";
import { useT } from "../../lib/i18n.js";
import {
  DEFAULT_PRINT_PREFS,
  loadPrintPrefs,
  savePrintPrefs,
  type PrintPrefs,
} from "../../lib/print-prefs.js";
import type { RecipePageData } from "../../lib/recipe-types.js";
import { CookMode } from "./CookMode.js";
import { Comments } from "./Comments.js";
import { RecipeBody } from "./RecipeBody.js";
import { RecipeFacts } from "./RecipeFacts.js";
import { RecipeMenu } from "./RecipeMenu.js";
import { AverageRating, RecipeRating } from "./RecipeRating.js";
import { CAPABILITIES } from "../../lib/capabilities.js";
import { RecipeTimelineButton } from "../timeline/RecipeTimelineButton.js";

// The editor (drag and drop, form controls) is most of the page's code and only editors need it.
const RecipeEditor = lazy(() =>
  import("./editor/RecipeEditor.js").then((m) => ({ default: m.RecipeEditor })),
);

type Mode = "view" | "cook" | "edit";

/** Classes that apply the print preferences to the page (styles/print.css). */
export function printClasses(p: PrintPrefs): string {
  return [
    `print-image-${p.imagePosition}`,
    p.showDescription ? "" : "print-hide-description",
    p.showNotes ? "" : "print-hide-notes",
    p.showNutrition ? "" : "print-hide-nutrition",
  ]
    .filter(Boolean)
    .join(" ");
}

export interface RecipePageProps {
  data: RecipePageData;
}

/** What the viewer sees follows the data: a visitor or a share link gets no rating, comments or restricted items. */
export function RecipePage({ data }: RecipePageProps) {
  const { recipe, groupSlug, menu, me, comments, actions, edit } = data;
  const t = useT("recipe");
  const navigate = useNavigate();
  const [cook, setCook] = useState(false);
  const [scale, setScale] = useState(1);
  const [printPrefs, setPrintPrefs] = useState<PrintPrefs>(DEFAULT_PRINT_PREFS);
  const action = `/g/${groupSlug}/r/${encodeURIComponent(recipe.slug)}`;
  const mode: Mode = edit ? "edit" : cook ? "cook" : "view";

  // Stored preferences are the browser's: read after hydration so server and client render alike. In a
  // transition, so the lazy editor's server HTML waits for its code instead of being thrown away (React #421).
  // That holds only while the server sends the editor inline (entry.server.tsx, WHOLE): React client-renders
  // a boundary whose HTML is not yet revealed on any update, a transition included.
  useEffect(() => startTransition(() => setPrintPrefs(loadPrintPrefs())), []);
  useEffect(() => {
    setScale(1);
    setCook(false);
  }, [recipe.id]);

  // Each mode lays the page out anew, the switch with it: the switch that had focus is gone, and focus
  // would fall to <body>. Give it to the new switch's chosen mode once that mode shows.
  const modeSwitch = useRef<HTMLDivElement>(null);
  const refocusSwitch = useRef(false);
  useEffect(() => {
    if (!refocusSwitch.current) return;
    refocusSwitch.current = false;
    modeSwitch.current?.querySelector<HTMLInputElement>("input:checked")?.focus();
  }, [mode]);

  const setMode = (next: Mode) => {
    refocusSwitch.current = next !== mode;
    if (next === "edit") return navigate(`${action}?edit=true`);
    if (mode === "edit") navigate(action);
    setCook(next === "cook");
  };
  const print = () => {
    // The print layout is the view, whatever mode the reader is in.
    flushSync(() => setCook(false));
    window.print();
  };

  const modes = [
    { value: "view", label: t("mode.view") },
    { value: "cook", label: t("mode.cook") },
    ...(menu.edit ? [{ value: "edit", label: t("mode.edit") }] : []),
  ];

  const toolbar = (
    <Group gap="sm" className="recipe__toolbar no-print" wrap="wrap">
      <SegmentedControl
        ref={modeSwitch}
        aria-label={t("mode.label")}
        value={mode}
        onChange={(v) => setMode(v as Mode)}
        data={modes}
        data-testid="mode-switch"
      />
      {/* One unit, so on a phone the menu and the timeline wrap together, never one of them alone. */}
      {mode !== "edit" ? (
        <Group gap="sm" wrap="nowrap" className="recipe__toolbar-actions">
          <RecipeMenu
            groupSlug={groupSlug}
            recipe={recipe}
            action={action}
            menu={menu}
            actions={actions}
            scale={scale}
            printPrefs={printPrefs}
            onPrintPrefs={(p) => {
              setPrintPrefs(p);
              savePrintPrefs(p);
            }}
            onEdit={() => setMode("edit")}
            onPrint={print}
          />
          {me && CAPABILITIES.timeline ? (
            <RecipeTimelineButton groupSlug={groupSlug} recipe={recipe} />
          ) : null}
        </Group>
      ) : null}
    </Group>
  );

  if (mode === "edit" && edit) {
    return (
      <article className="recipe recipe--edit">
        <h1 className="recipe__title">
          <bdi>{recipe.name}</bdi>
        </h1>
        {toolbar}
        <Suspense fallback={<Loader />}>
          <RecipeEditor
            key={recipe.id}
            action={action}
            original={edit.recipe}
            vocabulary={edit.vocabulary}
            canLock={me !== null && edit.recipe.userId === data.viewerId}
            onDone={(slug) => navigate(`/g/${groupSlug}/r/${encodeURIComponent(slug ?? recipe.slug)}`)}
          />
        </Suspense>
      </article>
    );
  }

  if (mode === "cook") {
    return (
      <article className="recipe recipe--cook">
        <h1 className="recipe__title">
          <bdi>{recipe.name}</bdi>
        </h1>
        {toolbar}
        <RecipeFacts recipe={recipe} scale={scale} onScale={setScale} />
        <CookMode recipe={recipe} scale={scale} groupSlug={groupSlug} onExit={() => setMode("view")} />
      </article>
    );
  }

  return (
    <article className={`recipe ${printClasses(printPrefs)}`} data-testid="recipe-view">
      <header className="recipe__hero">
        <div className="recipe__intro">
          <h1 className="recipe__title">
            <bdi>{recipe.name}</bdi>
          </h1>
          {toolbar}
          {recipe.descriptionHtml ? (
            <div
              className="recipe__description prose"
              dir="auto"
              dangerouslySetInnerHTML={{ __html: recipe.descriptionHtml }}
            />
          ) : null}
          <RecipeFacts recipe={recipe} scale={scale} onScale={setScale} />
          <div className="recipe__organizers">
            <Chips
              items={recipe.categories}
              groupSlug={groupSlug}
              param="categories"
              label={t("organizers.categories")}
            />
            <Chips items={recipe.tags} groupSlug={groupSlug} param="tags" label={t("organizers.tags")} />
          </div>
          {me ? (
            <RecipeRating action={action} average={recipe.rating} me={me} />
          ) : (
            <div className="no-print">
              <AverageRating value={recipe.rating} />
            </div>
          )}
          {recipe.orgURL ? (
            <p className="recipe__source no-print">
              <a href={recipe.orgURL} target="_blank" rel="noopener noreferrer nofollow">
                {t("originalRecipe")}
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
          priority
          sizes="(max-width: 900px) 100vw, 520px"
        />
      </header>
      <RecipeBody recipe={recipe} groupSlug={groupSlug} scale={scale} />
      {comments ? <Comments comments={comments} action={action} /> : null}
    </article>
  );
}
