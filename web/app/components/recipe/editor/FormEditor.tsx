/** The FORM editor: every field of the draft a person edits, grouped as the recipe page shows them. */
import type { ReactNode } from "react";
import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  TextInput,
  Textarea,
} from "@mantine/core";
import { useT } from "../../../lib/i18n.js";
import {
  cookTimeOf,
  notesOf,
  setCookTime,
  organizerNames,
  setOrganizers,
  type Draft,
  type DraftNote,
  type OrganizerKey,
} from "../../../lib/recipe-edit.js";
import type { EditVocabulary, NutritionKey } from "../../../lib/recipe-types.js";
import { PlusIcon, TrashIcon } from "../icons.js";
import { IngredientsEditor } from "./IngredientsEditor.js";
import { StepsEditor } from "./StepsEditor.js";

const NUTRITION_KEYS: NutritionKey[] = [
  "calories",
  "fatContent",
  "saturatedFatContent",
  "transFatContent",
  "unsaturatedFatContent",
  "cholesterolContent",
  "sodiumContent",
  "carbohydrateContent",
  "fiberContent",
  "sugarContent",
  "proteinContent",
];
const UNIT: Partial<Record<NutritionKey, string>> = {
  cholesterolContent: "mg",
  sodiumContent: "mg",
  calories: "",
};

const SETTINGS = [
  ["public", "settingPublic"],
  ["showNutrition", "settingShowNutrition"],
  ["disableComments", "settingDisableComments"],
  ["disableAmount", "settingDisableAmount"],
  ["locked", "settingLocked"],
] as const;

export interface FormEditorProps {
  draft: Draft;
  onChange: (d: Draft) => void;
  vocabulary: EditVocabulary;
  /** Only the owner may lock or unlock (core refuses others); the switch is hidden for them. */
  canLock: boolean;
  /** The image upload control (it saves at once, outside the draft). */
  imageControl: ReactNode;
  /** Why the name cannot be saved (empty), shown at the field. */
  nameError?: string | null;
}

export function FormEditor({
  draft,
  onChange,
  vocabulary,
  canLock,
  imageControl,
  nameError,
}: FormEditorProps) {
  const t = useT("recipe");
  const text = (key: string) => (typeof draft[key] === "string" ? (draft[key] as string) : "");
  const field = (key: string, label: string, extra: object = {}) => (
    <TextInput
      label={label}
      value={text(key)}
      onChange={(e) => onChange({ ...draft, [key]: e.currentTarget.value })}
      {...extra}
    />
  );
  const num = (key: string, label: string) => (
    <NumberInput
      label={label}
      min={0}
      decimalScale={3}
      value={typeof draft[key] === "number" ? (draft[key] as number) : ""}
      onChange={(v) => onChange({ ...draft, [key]: typeof v === "number" ? v : 0 })}
    />
  );
  const organizer = (key: OrganizerKey, label: string, data: string[]) => (
    <TagsInput
      label={label}
      data={data}
      value={organizerNames(draft, key)}
      onChange={(names) => onChange(setOrganizers(draft, key, names))}
      clearable
    />
  );
  const notes = notesOf(draft);
  const setNotes = (list: DraftNote[]) => onChange({ ...draft, notes: list });
  const nutrition = (draft.nutrition ?? {}) as Record<string, string | null>;
  const settings = (draft.settings ?? {}) as Record<string, boolean>;

  return (
    <Stack gap="xl" className="form-editor" data-testid="form-editor">
      <section className="editor-section">
        <Stack gap="sm">
          {field("name", t("edit.name"), {
            required: true,
            "data-testid": "edit-name",
            error: nameError ?? undefined,
          })}
          <Textarea
            label={t("edit.description")}
            description={t("edit.descriptionHint")}
            value={text("description")}
            autosize
            minRows={3}
            onChange={(e) => onChange({ ...draft, description: e.currentTarget.value })}
            data-testid="edit-description"
          />
          {imageControl}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {num("recipeServings", t("edit.servings"))}
            {num("recipeYieldQuantity", t("edit.yieldQuantity"))}
            {field("recipeYield", t("edit.yieldUnit"))}
            {field("totalTime", t("edit.totalTime"))}
            {field("prepTime", t("edit.prepTime"))}
            <TextInput
              label={t("edit.performTime")}
              value={cookTimeOf(draft)}
              onChange={(e) => onChange(setCookTime(draft, e.currentTarget.value))}
              data-testid="edit-cook-time"
            />
          </SimpleGrid>
          {field("orgURL", t("edit.orgURL"), { type: "url" })}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {organizer("recipeCategory", t("edit.categories"), vocabulary.categories)}
            {organizer("tags", t("edit.tags"), vocabulary.tags)}
            {organizer("tools", t("edit.tools"), vocabulary.tools)}
          </SimpleGrid>
        </Stack>
      </section>

      <IngredientsEditor
        draft={draft}
        onChange={onChange}
        units={vocabulary.units}
        foods={vocabulary.foods}
      />
      <StepsEditor draft={draft} onChange={onChange} />

      <section className="editor-section" aria-labelledby="edit-notes">
        <h2 id="edit-notes">{t("edit.notes")}</h2>
        <Stack gap="sm">
          {notes.map((n, i) => (
            <Group key={i} align="flex-start" wrap="nowrap">
              <Stack gap="xs" className="grow">
                <TextInput
                  aria-label={t("edit.noteTitle")}
                  placeholder={t("edit.noteTitle")}
                  value={n.title ?? ""}
                  onChange={(e) =>
                    setNotes(notes.map((x, j) => (j === i ? { ...x, title: e.currentTarget.value } : x)))
                  }
                />
                <Textarea
                  aria-label={t("edit.noteText")}
                  placeholder={t("edit.noteText")}
                  value={n.text ?? ""}
                  autosize
                  minRows={2}
                  onChange={(e) =>
                    setNotes(notes.map((x, j) => (j === i ? { ...x, text: e.currentTarget.value } : x)))
                  }
                />
              </Stack>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t("edit.remove")}
                onClick={() => setNotes(notes.filter((_, j) => j !== i))}
              >
                <TrashIcon />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              variant="light"
              leftSection={<PlusIcon />}
              onClick={() => setNotes([...notes, { title: "", text: "" }])}
            >
              {t("edit.addNote")}
            </Button>
          </Group>
        </Stack>
      </section>

      <section className="editor-section" aria-labelledby="edit-nutrition">
        <h2 id="edit-nutrition">{t("edit.nutrition")}</h2>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {NUTRITION_KEYS.map((key) => (
            <TextInput
              key={key}
              label={t(`nutrients.${key}`)}
              rightSection={UNIT[key] ?? "g"}
              value={nutrition[key] ?? ""}
              onChange={(e) =>
                onChange({ ...draft, nutrition: { ...nutrition, [key]: e.currentTarget.value || null } })
              }
            />
          ))}
        </SimpleGrid>
      </section>

      <section className="editor-section" aria-labelledby="edit-settings">
        <h2 id="edit-settings">{t("edit.settings")}</h2>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {SETTINGS.filter(([key]) => key !== "locked" || canLock).map(([key, label]) => (
            <Switch
              key={key}
              label={t(`edit.${label}`)}
              checked={Boolean(settings[key])}
              onChange={(e) =>
                onChange({ ...draft, settings: { ...settings, [key]: e.currentTarget.checked } })
              }
            />
          ))}
        </SimpleGrid>
      </section>
    </Stack>
  );
}
