/**
 * /g/:groupSlug/r/create/zip: a recipe from a recipe zip (Larder's or Mealie's recipe export), then edit
 * mode. A plain multipart form post through `larder.imports.importZip`, the same path as
 * POST /api/recipes/create/zip.
 */
import { redirect, type MetaFunction } from "react-router";
import { Form, useActionData, useNavigation } from "react-router";
import { Alert, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useT, metaT } from "../lib/i18n.js";
import { requireGroupMember } from "../lib/session.server.js";
import { importProblem } from "../lib/imports.server.js";
import { MultipartLimitError, parseMultipartForm } from "../lib/multipart.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "create")("zip.title") }];

export async function loader({ request, context, params }: LoaderArgs) {
  await requireGroupMember(request, context, params.groupSlug);
  return null;
}

export async function action({
  request,
  context,
  params,
}: ActionArgs): Promise<{ error: "required" | "tooLarge" | "other"; message: string | null }> {
  const { actor, groupSlug } = await requireGroupMember(request, context, params.groupSlug);
  let form: FormData;
  try {
    form = await parseMultipartForm(request, {
      maxFileBytes: context.larder.config.maxUploadBytes,
      maxFiles: 1,
    });
  } catch (e) {
    if (e instanceof MultipartLimitError) return { error: "tooLarge", message: null };
    throw e;
  }
  const file = form.get("archive");
  if (!file || typeof file === "string" || file.size === 0) return { error: "required", message: null };
  try {
    const r = await context.larder.imports.importZip(actor, Buffer.from(await file.arrayBuffer()), {
      source: "ui",
    });
    throw redirect(`/g/${groupSlug}/r/${encodeURIComponent(r.slug)}?edit=true`);
  } catch (e) {
    if (e instanceof Response) throw e;
    const p = importProblem(context, "a recipe zip", e);
    return { error: "other", message: p.ok ? null : p.message };
  }
}

export default function ImportZip() {
  const t = useT("create");
  const tc = useT("common");
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const error =
    result?.error === "required"
      ? tc("validation.required")
      : result?.error === "tooLarge"
        ? t("zip.tooLarge")
        : result?.error === "other"
          ? (result.message ?? t("zip.failed"))
          : null;
  return (
    <div className="page">
      <Paper withBorder radius="md" p="lg" maw={720} mx="auto">
        <Form method="post" encType="multipart/form-data">
          <Stack gap="md">
            <Title order={1} size="h2">
              {t("zip.title")}
            </Title>
            <Text c="dimmed">{t("zip.hint")}</Text>
            {error ? (
              <Alert color="red" data-testid="zip-error">
                {error}
              </Alert>
            ) : null}
            <label>
              <Text size="sm" fw={500}>
                {t("zip.file")}
              </Text>
              <input
                type="file"
                name="archive"
                accept=".zip,application/zip"
                required
                data-testid="zip-file"
              />
            </label>
            <Group justify="flex-end">
              <Button type="submit" loading={navigation.state !== "idle"} data-testid="zip-submit">
                {t("zip.submit")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </div>
  );
}
