/**
 * Edit mode (spec §4): the FORM and JSON editors over one draft, toggling; a leave-page warning while
 * there are unsaved changes (closing the tab, and links inside the app); saving through the page's
 * action, with the copy it opened as the base: a change made meanwhile (another person, a script, a hand
 * edit of the file) is kept where the form left the field alone (decision 0306). A save refused because
 * someone changed a field the form changed too (core's 409) says so and offers a reload.
 */
import { useEffect, useRef, useState } from "react";
import { useBeforeUnload, useBlocker } from "react-router";
import { Button, FileButton, Group, SegmentedControl, Stack, Text, Textarea } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { AppDialog } from "../../dialog/AppDialog.js";
import { useT } from "../../../lib/i18n.js";
import { failedText, toast } from "../../../lib/toast.js";
import {
  draftChanged,
  draftToJson,
  parseDraftJson,
  type Draft,
  type JsonParse,
} from "../../../lib/recipe-edit.js";
import type { EditVocabulary } from "../../../lib/recipe-types.js";
import { UploadIcon } from "../icons.js";
import { useRecipeIntent, type IntentResult } from "../use-recipe-intent.js";
import { FormEditor } from "./FormEditor.js";

export interface RecipeEditorProps {
  action: string;
  original: Draft;
  vocabulary: EditVocabulary;
  canLock: boolean;
  /** Leave edit mode; with the recipe's slug after a save (a new name moves it). */
  onDone: (slug?: string) => void;
}

export function RecipeEditor({ action, original, vocabulary, canLock, onDone }: RecipeEditorProps) {
  const t = useT("recipe");
  const [draft, setDraft] = useState<Draft>(original);
  // The copy the draft was made from. `original` follows the page's loader, which runs again after
  // every action on the page (a rating, an image) and then carries what others changed meanwhile.
  const [base] = useState<Draft>(original);
  const [mode, setMode] = useState<"form" | "json">("form");
  const [jsonText, setJsonText] = useState("");
  // A recipe needs a name (Mealie's 422): said at the field, in the page's language, before sending.
  const [nameError, setNameError] = useState<string | null>(null);
  const [jsonError, setJsonError] = useState<string | null>(null);
  // Set just before leaving on purpose (after a save, or reloading after a conflict): no warning then.
  const leaving = useRef(false);

  // An image upload (saved at once) changes the stored recipe; take its stamps so the draft stays clean.
  useEffect(() => {
    setDraft((d) => ({
      ...d,
      image: original.image,
      updatedAt: original.updatedAt,
      dateUpdated: original.dateUpdated,
    }));
  }, [original]);

  const dirty = draftChanged(draft, original) || (mode === "json" && jsonText !== draftToJson(draft));

  useBeforeUnload((e) => {
    if (!dirty || leaving.current) return;
    e.preventDefault();
    e.returnValue = "";
  });
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !leaving.current &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  const parseError = (p: Extract<JsonParse, { ok: false }>) =>
    p.error === "syntax"
      ? t("edit.jsonInvalid", { detail: p.detail ?? "" })
      : p.error === "notObject"
        ? t("edit.jsonNotObject")
        : t("edit.jsonName");

  const switchMode = (next: "form" | "json") => {
    if (next === mode) return;
    if (next === "json") {
      setJsonText(draftToJson(draft));
      setJsonError(null);
      setMode("json");
      return;
    }
    const p = parseDraftJson(jsonText);
    if (!p.ok) return setJsonError(parseError(p));
    setDraft(p.draft);
    setJsonError(null);
    setMode("form");
  };

  const onSaved = (r: IntentResult) => {
    if (r.ok) {
      toast.success(t("edit.saved"));
      leaving.current = true;
      onDone(r.slug);
    } else if (r.error === "conflict") {
      const id = notifications.show({
        color: "error",
        autoClose: false,
        withCloseButton: true,
        role: "alert",
        "data-toast": "error",
        message: (
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t("edit.conflict")}</Text>
            <Group gap="xs">
              <Button
                size="xs"
                onClick={() => {
                  leaving.current = true;
                  window.location.reload();
                }}
              >
                {t("edit.reload")}
              </Button>
              <Button
                size="xs"
                variant="light"
                onClick={() => {
                  notifications.hide(id);
                  saveRef.current(true);
                }}
              >
                {t("edit.keepMine")}
              </Button>
            </Group>
          </Stack>
        ),
      });
    } else if (r.error === "forbidden") toast.error(t("edit.forbidden"));
    else if (r.error === "invalid") toast.error(t("edit.invalid", { message: r.message ?? "" }));
    else toast.error(failedText(t("edit.failed"), r));
  };
  const saver = useRecipeIntent(action, onSaved);
  const uploader = useRecipeIntent(action, (r) => {
    if (r.ok) toast.success(t("edit.imageUploaded"));
    else if (r.error === "tooLarge") toast.error(t("edit.imageTooLarge"));
    else toast.error(failedText(t("edit.imageFailed"), r));
  });

  /** `mineWins`: the person chose their version of the fields someone else changed too. */
  const save = (mineWins = false) => {
    let body = draft;
    if (mode === "json") {
      const p = parseDraftJson(jsonText);
      if (!p.ok) return setJsonError(parseError(p));
      body = p.draft;
      setDraft(p.draft);
    }
    if (typeof body.name !== "string" || !body.name.trim()) {
      setMode("form");
      setNameError(t("common:validation.required"));
      requestAnimationFrame(() => document.querySelector<HTMLElement>("[data-testid=edit-name]")?.focus());
      return;
    }
    saver.run("save", {
      recipe: JSON.stringify(body),
      base: JSON.stringify(base),
      ...(mineWins ? { mineWins: "1" } : {}),
    });
  };
  // The conflict's notification is made in onSaved, before this render's `save` exists.
  const saveRef = useRef(save);
  saveRef.current = save;

  const upload = (file: File | null) => {
    if (!file) return;
    const form = new FormData();
    form.set("intent", "image");
    form.set("image", file);
    uploader.upload(form);
  };
  const imageControl = (
    <Group>
      <FileButton onChange={upload} accept="image/*">
        {(props) => (
          <Button
            {...props}
            variant="light"
            leftSection={<UploadIcon />}
            loading={uploader.busy}
            data-testid="upload-image"
          >
            {t("edit.uploadImage")}
          </Button>
        )}
      </FileButton>
    </Group>
  );

  return (
    <div className="recipe-editor" data-testid="recipe-editor">
      <Group justify="space-between" className="recipe-editor__bar" wrap="wrap">
        <SegmentedControl
          aria-label={t("edit.editorMode")}
          value={mode}
          onChange={(v) => switchMode(v as "form" | "json")}
          data={[
            { value: "form", label: t("edit.form") },
            { value: "json", label: t("edit.json") },
          ]}
          data-testid="editor-mode"
        />
        <Group gap="sm">
          <Button variant="subtle" color="gray" onClick={() => onDone()}>
            {t("edit.cancel")}
          </Button>
          <Button onClick={() => save()} loading={saver.busy} data-testid="save-recipe">
            {t("edit.save")}
          </Button>
        </Group>
      </Group>
      {mode === "form" ? (
        <FormEditor
          draft={draft}
          onChange={(d) => {
            if (nameError && typeof d.name === "string" && d.name.trim()) setNameError(null);
            setDraft(d);
          }}
          nameError={nameError}
          vocabulary={vocabulary}
          canLock={canLock}
          imageControl={imageControl}
        />
      ) : (
        <Textarea
          className="json-editor"
          aria-label={t("edit.json")}
          value={jsonText}
          onChange={(e) => setJsonText(e.currentTarget.value)}
          error={jsonError}
          autosize
          minRows={20}
          maxRows={60}
          spellCheck={false}
          styles={{ input: { fontFamily: "var(--mono, monospace)", fontSize: "0.85rem" } }}
          data-testid="json-editor"
        />
      )}
      <AppDialog
        opened={blocker.state === "blocked"}
        onClose={() => blocker.reset?.()}
        title={t("edit.leave")}
        submitLabel={t("edit.leave")}
        cancelLabel={t("edit.stay")}
        submitColor="red"
        onSubmit={() => blocker.proceed?.()}
        data-testid="leave-dialog"
      >
        <Text>{t("edit.leaveWarning")}</Text>
      </AppDialog>
    </div>
  );
}
