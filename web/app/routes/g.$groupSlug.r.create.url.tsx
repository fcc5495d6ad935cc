/**
 * /g/:groupSlug/r/create/url: import a recipe from a web page (spec §2), or from pasted HTML or
 * schema.org JSON; then open it in edit mode. "Test" shows what the page holds without saving (Mealie's
 * test-scrape). Bulk: several URLs, each imported on its own with a live status per URL. The single
 * import is a plain form post (works without JavaScript) through `larder.imports`, the same path as
 * POST /api/recipes/create/url.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "react-router";
import type { LinksFunction } from "react-router";
import { Form, Link, useActionData, useNavigation, useParams } from "react-router";
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  List,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { BulkImport } from "../components/create/BulkImport.js";
import { useT, metaT } from "../lib/i18n.js";
import { requireGroupMember } from "../lib/session.server.js";
import { importProblem, importUrl, testScrape, type ScrapePreview } from "../lib/imports.server.js";
import { importProblemText, type ImportProblem } from "../lib/import-problem.js";
import { useFormat } from "../lib/use-format.js";
import organizeStyles from "../styles/organize.css?url";
import { stylesheet } from "../lib/stylesheets.js";

export const links: LinksFunction = () => [stylesheet(organizeStyles)];

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "recipe")("import.title") }];

type ImportError = ImportProblem;

interface ActionResult {
  error: ImportError | null;
  message: string | null;
  url: string;
  data: string;
  tags: boolean;
  preview?: ScrapePreview;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireGroupMember(request, context, params.groupSlug);
  return null;
}

export async function action({ request, context, params }: ActionFunctionArgs): Promise<ActionResult> {
  const { actor, groupSlug } = await requireGroupMember(request, context, params.groupSlug);
  const form = await request.formData();
  const url = String(form.get("url") ?? "").trim();
  const data = String(form.get("data") ?? "");
  const tags = form.get("includeTags") === "on";
  const echo = { url, data, tags };
  if (form.get("intent") === "test") {
    const r = await testScrape(context, actor, url, data);
    return r.ok
      ? { error: null, message: null, ...echo, preview: r.preview }
      : { error: r.error, message: r.message, ...echo };
  }
  if (!url && !data.trim()) return { error: "required", message: null, ...echo };
  if (url) {
    const r = await importUrl(context, actor, url, tags);
    if (r.ok) throw redirect(`/g/${groupSlug}/r/${encodeURIComponent(r.slug)}?edit=true`);
    return { error: r.error, message: r.message, ...echo };
  }
  try {
    const input = context.larder.imports.pasted(data);
    const { slug } = await context.larder.imports.importOne(actor, input, {
      tags,
      categories: false,
      source: "ui",
    });
    throw redirect(`/g/${groupSlug}/r/${encodeURIComponent(slug)}?edit=true`);
  } catch (e) {
    if (e instanceof Response) throw e;
    const r = importProblem(context, "pasted data", e);
    return { error: r.ok ? "other" : r.error, message: r.ok ? null : r.message, ...echo };
  }
}

function Preview({ preview }: { preview: ScrapePreview }) {
  const f = useFormat();
  const t = useT("create");
  return (
    <Paper withBorder radius="md" p="md" data-testid="scrape-preview">
      <Stack gap="xs">
        <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
          {t("test.heading")}
        </Text>
        <Title order={2} size="h3" data-testid="scrape-preview-name">
          {preview.name}
        </Title>
        {preview.description ? <Text size="sm">{preview.description}</Text> : null}
        <Text size="sm" c="dimmed">
          {t("test.summary", { ingredients: preview.ingredients.length, steps: preview.steps })}
          {preview.totalTime ? ` · ${f.duration(preview.totalTime)}` : ""}
        </Text>
        {preview.ingredients.length ? (
          <List size="sm" spacing={2}>
            {preview.ingredients.slice(0, 12).map((i, n) => (
              <List.Item key={n}>{i}</List.Item>
            ))}
          </List>
        ) : null}
        {preview.keywords.length ? (
          <Group gap={4}>
            <Text size="sm">{t("test.keywords")}</Text>
            {preview.keywords.map((k) => (
              <Badge key={k} variant="light" size="sm">
                {k}
              </Badge>
            ))}
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}

export default function ImportRecipe() {
  const t = useT("recipe");
  const tc = useT("common");
  const tcr = useT("create");
  const { groupSlug = "" } = useParams();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busyIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const error =
    result?.error === "required"
      ? tc("validation.required")
      : result?.error
        ? importProblemText(t, result.error, result.message)
        : null;
  const base = `/g/${encodeURIComponent(groupSlug)}`;

  return (
    <div className="page">
      <Stack maw={720} mx="auto" gap="lg">
        <Paper withBorder radius="md" p="lg">
          <Form method="post">
            <Stack gap="md">
              <Title order={1} size="h2">
                {t("import.title")}
              </Title>
              {error ? (
                <Alert color="red" data-testid="import-error">
                  {error}
                </Alert>
              ) : null}
              <TextInput
                name="url"
                type="url"
                label={t("import.url")}
                description={t("import.urlHint")}
                defaultValue={result?.url ?? ""}
                autoFocus
                data-testid="import-url"
              />
              <Textarea
                name="data"
                label={t("import.data")}
                description={t("import.dataHint")}
                defaultValue={result?.data ?? ""}
                autosize
                minRows={3}
                maxRows={12}
                data-testid="import-data"
              />
              <Checkbox
                name="includeTags"
                label={t("import.includeTags")}
                defaultChecked={result?.tags ?? false}
                data-testid="import-tags"
              />
              <Group justify="flex-end">
                <Button
                  type="submit"
                  name="intent"
                  value="import"
                  loading={busyIntent === "import"}
                  data-testid="import-submit"
                >
                  {t("import.submit")}
                </Button>
                <Button
                  type="submit"
                  name="intent"
                  value="test"
                  variant="default"
                  loading={busyIntent === "test"}
                  data-testid="import-test"
                >
                  {tcr("test.button")}
                </Button>
              </Group>
            </Stack>
          </Form>
        </Paper>
        {result?.preview ? <Preview preview={result.preview} /> : null}
        <Paper withBorder radius="md" p="lg">
          <BulkImport endpoint={`${base}/import-url`} groupSlug={groupSlug} />
        </Paper>
        <Group gap="md" justify="center">
          <Link to={`${base}/r/create/zip`}>{tcr("links.zip")}</Link>
          <Link to={`${base}/data/migrations`}>{tcr("links.migrate")}</Link>
        </Group>
      </Stack>
    </div>
  );
}
