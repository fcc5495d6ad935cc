/**
 * /g/:groupSlug/r/create/url: import a recipe from a web page (spec §2), or from pasted HTML or
 * schema.org JSON; then open it in edit mode. A plain form post (works without JavaScript) through
 * `larder.imports`, the same path as POST /api/recipes/create/url.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "react-router";
import { Form, useActionData, useNavigation } from "react-router";
import { Alert, Button, Checkbox, Group, Paper, Stack, Textarea, TextInput, Title } from "@mantine/core";
import { useT, metaT } from "../lib/i18n.js";
import { requireGroupMember } from "../lib/session.server.js";
import { statusOf } from "../lib/errors.server.js";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "recipe")("import.title") }];

type ImportError = "required" | "noRecipe" | "timeout" | "other";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireGroupMember(request, context, params.groupSlug);
  return null;
}

export async function action({
  request,
  context,
  params,
}: ActionFunctionArgs): Promise<{ error: ImportError; message: string | null; url: string; data: string }> {
  const { actor, groupSlug } = await requireGroupMember(request, context, params.groupSlug);
  const form = await request.formData();
  const url = String(form.get("url") ?? "").trim();
  const data = String(form.get("data") ?? "");
  const tags = form.get("includeTags") === "on";
  if (!url && !data.trim()) return { error: "required", message: null, url, data };
  try {
    let input: Parameters<typeof context.larder.imports.importOne>[1];
    const t = data.trim();
    if (url) input = { type: "url", url };
    else if (t.startsWith("{") || t.startsWith("[")) {
      try {
        input = { type: "json", json: JSON.parse(t) };
      } catch {
        return { error: "noRecipe", message: null, url, data };
      }
    } else input = { type: "html", html: data };
    const { slug } = await context.larder.imports.importOne(actor, input, {
      tags,
      categories: false,
      source: "ui",
    });
    throw redirect(`/g/${groupSlug}/r/${encodeURIComponent(slug)}?edit=true`);
  } catch (e) {
    if (e instanceof Response) throw e;
    const status = statusOf(e);
    // Mealie's "no recipe" answer: 400 with the detail {"details": "BAD_RECIPE_DATA"}.
    if ((e as { detail?: { details?: unknown } }).detail?.details === "BAD_RECIPE_DATA")
      return { error: "noRecipe", message: null, url, data };
    if (status === 408) return { error: "timeout", message: null, url, data };
    // The fetcher's and importers' messages are written for people and never name internal addresses.
    if (status !== null && status < 500) return { error: "other", message: (e as Error).message, url, data };
    context.larder.log.warn(
      `importing ${url || "pasted data"} failed: ${e instanceof Error ? e.message : String(e)}`,
    );
    return { error: "other", message: null, url, data };
  }
}

export default function ImportRecipe() {
  const t = useT("recipe");
  const tc = useT("common");
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const error =
    result?.error === "required"
      ? tc("validation.required")
      : result?.error === "noRecipe"
        ? t("import.noRecipe")
        : result?.error === "timeout"
          ? t("import.timeout")
          : result?.error === "other"
            ? (result.message ?? t("import.failed"))
            : null;

  return (
    <div className="page">
      <Paper withBorder radius="md" p="lg" maw={720} mx="auto">
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
            <Checkbox name="includeTags" label={t("import.includeTags")} data-testid="import-tags" />
            <Group justify="flex-end">
              <Button type="submit" loading={navigation.state !== "idle"} data-testid="import-submit">
                {t("import.submit")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </div>
  );
}
