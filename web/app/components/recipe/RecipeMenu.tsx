/**
 * The recipe context menu (spec §2, §6): edit, delete, download, duplicate, share and the household's
 * recipe actions for members of the recipe's group; print and print preferences for everyone. Which
 * items show comes from core/policy (the loader's `menu`); meal plan and shopping list wait for their
 * screens (lib/capabilities.ts: no dead controls).
 */
import { lazy, useState } from "react";
import { useNavigate } from "react-router";
import { ActionIcon, Menu, Text, TextInput } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { LazyMenu } from "../LazyMenu.js";
import { WhenOpened } from "../dialog/LazyModal.js";
import { useT } from "../../lib/i18n.js";
import { failedText, toast } from "../../lib/toast.js";
import { resolveActionUrl, type RecipeActionItem } from "../../lib/recipe-actions.js";
import type { RecipeMenu as MenuFlags } from "../../lib/pure-core.js";
import type { PrintPrefs } from "../../lib/print-prefs.js";
import { CartIcon } from "../shopping/icons.js";
import { CAPABILITIES } from "../../lib/capabilities.js";
import {
  BoltIcon,
  CopyIcon,
  DotsIcon,
  DownloadIcon,
  LinkIcon,
  PencilIcon,
  PrinterIcon,
  SettingsIcon,
  ShareIcon,
  TrashIcon,
} from "./icons.js";
import { useRecipeIntent } from "./use-recipe-intent.js";
import { CalendarIcon } from "../mealplan/icons.js";

// The menu's dialogs, and the form controls they use, load when one first opens: a page view needs none.
const PrintPrefsDialog = lazy(() =>
  import("./PrintPrefsDialog.js").then((m) => ({ default: m.PrintPrefsDialog })),
);
const ShareDialog = lazy(() => import("./ShareDialog.js").then((m) => ({ default: m.ShareDialog })));
const AddToListDialog = lazy(() =>
  import("../shopping/AddToListDialog.js").then((m) => ({ default: m.AddToListDialog })),
);
const AddToMealPlanDialog = lazy(() =>
  import("../mealplan/AddToMealPlanDialog.js").then((m) => ({ default: m.AddToMealPlanDialog })),
);

export interface RecipeMenuProps {
  groupSlug: string;
  recipe: { id: string; slug: string; name: string };
  action: string;
  menu: MenuFlags;
  actions: RecipeActionItem[];
  scale: number;
  printPrefs: PrintPrefs;
  onPrintPrefs: (p: PrintPrefs) => void;
  onEdit: () => void;
  onPrint: () => void;
}

type Dialog = "delete" | "duplicate" | "share" | "print" | "mealplan" | "shoppingList" | null;

/** Saves a download without leaving the page (the zip answers with Content-Disposition: attachment). */
function download(url: string, filename: string): void {
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function RecipeMenu(props: RecipeMenuProps) {
  const { groupSlug, recipe, action, menu, actions, scale } = props;
  const t = useT("recipe");
  const tc = useT("common");
  const tp = useT("planner");
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [copyName, setCopyName] = useState(recipe.name);
  const { call, run, busy } = useRecipeIntent(action, (r) => {
    if (r.intent === "zip") {
      if (r.ok && r.token)
        download(
          `/api/recipes/${encodeURIComponent(recipe.slug)}/exports/zip?token=${encodeURIComponent(r.token)}`,
          `${recipe.slug}.zip`,
        );
      else toast.error(t("download.failed"));
    } else if (r.intent === "triggerAction") {
      if (r.ok && r.sent) toast.success(t("actions.sent"));
      else toast.error(t("actions.failed"));
    }
  });
  const close = () => setDialog(null);

  const runAction = (a: RecipeActionItem) => {
    if (a.actionType === "link") {
      const url = resolveActionUrl(a.url, {
        pageUrl: window.location.href,
        id: recipe.id,
        slug: recipe.slug,
      });
      if (url) window.open(url, "_blank", "noopener,noreferrer");
      else toast.error(t("actions.badUrl"));
    } else run("triggerAction", { id: a.id, scale: String(scale) });
  };

  return (
    <>
      <LazyMenu
        position="bottom-end"
        withinPortal
        shadow="md"
        width={240}
        target={
          <ActionIcon
            variant="light"
            size="lg"
            aria-label={t("menu.label")}
            data-testid="recipe-menu"
            loading={busy}
          >
            <DotsIcon />
          </ActionIcon>
        }
      >
        {menu.edit ? (
          <Menu.Item leftSection={<PencilIcon />} onClick={props.onEdit}>
            {t("menu.edit")}
          </Menu.Item>
        ) : null}
        {menu.delete ? (
          <Menu.Item leftSection={<TrashIcon />} color="red" onClick={() => setDialog("delete")}>
            {t("menu.delete")}
          </Menu.Item>
        ) : null}
        {menu.download ? (
          <Menu.Item leftSection={<DownloadIcon />} onClick={() => run("zip")}>
            {t("menu.download")}
          </Menu.Item>
        ) : null}
        {menu.duplicate ? (
          <Menu.Item
            leftSection={<CopyIcon />}
            onClick={() => {
              setCopyName(recipe.name);
              setDialog("duplicate");
            }}
          >
            {t("menu.duplicate")}
          </Menu.Item>
        ) : null}
        {menu.mealplanner && CAPABILITIES.mealPlanner ? (
          <Menu.Item leftSection={<CalendarIcon />} onClick={() => setDialog("mealplan")}>
            {tp("addToPlan.menu")}
          </Menu.Item>
        ) : null}
        {menu.shoppingList && CAPABILITIES.shoppingLists ? (
          <Menu.Item leftSection={<CartIcon />} onClick={() => setDialog("shoppingList")}>
            {t("shopping:picker.menu")}
          </Menu.Item>
        ) : null}
        {menu.share ? (
          <Menu.Item leftSection={<ShareIcon />} onClick={() => setDialog("share")}>
            {t("menu.share")}
          </Menu.Item>
        ) : null}
        <Menu.Item leftSection={<PrinterIcon />} onClick={props.onPrint}>
          {t("menu.print")}
        </Menu.Item>
        <Menu.Item leftSection={<SettingsIcon />} onClick={() => setDialog("print")}>
          {t("menu.printPreferences")}
        </Menu.Item>
        {actions.length ? (
          <>
            <Menu.Divider />
            <Menu.Label>{t("menu.actions")}</Menu.Label>
            {actions.map((a) => (
              <Menu.Item
                key={a.id}
                leftSection={a.actionType === "link" ? <LinkIcon /> : <BoltIcon />}
                onClick={() => runAction(a)}
                data-action-type={a.actionType}
              >
                {a.title}
              </Menu.Item>
            ))}
          </>
        ) : null}
      </LazyMenu>

      <AppDialog
        opened={dialog === "delete"}
        onClose={close}
        title={t("delete.title")}
        submitLabel={tc("actions.delete")}
        submitColor="red"
        data-testid="delete-dialog"
        onSubmit={async () => {
          const r = await call("delete");
          if (!r.ok) {
            toast.error(failedText(tc("errors.somethingWentWrong"), r));
            return false;
          }
          toast.success(t("delete.done"));
          navigate(`/g/${groupSlug}`, { replace: true });
        }}
      >
        <Text>{t("delete.confirm", { name: recipe.name })}</Text>
      </AppDialog>

      <AppDialog
        opened={dialog === "duplicate"}
        onClose={close}
        title={t("duplicate.title")}
        submitLabel={t("menu.duplicate")}
        canSubmit={copyName.trim() !== ""}
        onSubmit={async () => {
          const r = await call("duplicate", { name: copyName });
          if (!r.ok || !r.slug) {
            toast.error(failedText(tc("errors.somethingWentWrong"), r));
            return false;
          }
          toast.success(t("duplicate.done"));
          navigate(`/g/${groupSlug}/r/${encodeURIComponent(r.slug)}`);
        }}
      >
        <TextInput
          label={t("duplicate.name")}
          value={copyName}
          onChange={(e) => setCopyName(e.currentTarget.value)}
          data-autofocus
        />
      </AppDialog>

      {menu.share ? (
        <WhenOpened opened={dialog === "share"}>
          <ShareDialog opened={dialog === "share"} onClose={close} groupSlug={groupSlug} action={action} />
        </WhenOpened>
      ) : null}
      {menu.mealplanner && CAPABILITIES.mealPlanner ? (
        <WhenOpened opened={dialog === "mealplan"}>
          <AddToMealPlanDialog opened={dialog === "mealplan"} onClose={close} recipe={recipe} />
        </WhenOpened>
      ) : null}
      {menu.shoppingList && CAPABILITIES.shoppingLists ? (
        <WhenOpened opened={dialog === "shoppingList"}>
          <AddToListDialog opened={dialog === "shoppingList"} onClose={close} recipe={recipe} scale={scale} />
        </WhenOpened>
      ) : null}
      <WhenOpened opened={dialog === "print"}>
        <PrintPrefsDialog
          opened={dialog === "print"}
          onClose={close}
          prefs={props.printPrefs}
          onSave={props.onPrintPrefs}
        />
      </WhenOpened>
    </>
  );
}
