/**
 * /g/:groupSlug/r/create/image: a recipe from one or several photos through the configured AI service
 * (spec §2; hidden and 404 unless app info says image services are on). A plain multipart form post.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "react-router";
import { Form, useActionData, useNavigation } from "react-router";
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { useT, metaT } from "../lib/i18n.js";
import { requireGroupMember } from "../lib/session.server.js";
import { statusOf } from "../lib/errors.server.js";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "recipe")("import.imageTitle") }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireGroupMember(request, context, params.groupSlug);
  if (!context.larder.imports.imageServicesEnabled()) throw new Response("Not Found", { status: 404 });
  return null;
}

export async function action({
  request,
  context,
  params,
}: ActionFunctionArgs): Promise<{ error: string | null }> {
  const { actor, groupSlug } = await requireGroupMember(request, context, params.groupSlug);
  const form = await request.formData();
  const files = form
    .getAll("images")
    .filter((f): f is File => typeof f === "object" && f !== null && "arrayBuffer" in f && f.size > 0);
  if (files.length === 0) return { error: null };
  const max = context.larder.config.maxUploadBytes;
  if (files.some((f) => f.size > max)) return { error: "tooLarge" };
  const photos = await Promise.all(files.map(async (f) => ({ data: Buffer.from(await f.arrayBuffer()) })));
  const translateLanguage = String(form.get("translateLanguage") ?? "").trim() || null;
  try {
    const { slug } = await context.larder.imports.importImages(actor, photos, {
      translateLanguage,
      source: "ui",
    });
    throw redirect(`/g/${groupSlug}/r/${encodeURIComponent(slug)}?edit=true`);
  } catch (e) {
    if (e instanceof Response) throw e;
    const status = statusOf(e);
    // The AI client's and importer's messages are written for people ("The AI service …").
    if (status !== null && status !== 401 && status !== 403 && status !== 404)
      return { error: (e as Error).message };
    throw e;
  }
}

export default function ImportFromImage() {
  const t = useT("recipe");
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const error = result
    ? result.error === "tooLarge"
      ? t("edit.imageTooLarge")
      : (result.error ?? t("import.pickImage"))
    : null;
  return (
    <div className="page">
      <Paper withBorder radius="md" p="lg" maw={640} mx="auto">
        <Form method="post" encType="multipart/form-data">
          <Stack gap="md">
            <Title order={1} size="h2">
              {t("import.imageTitle")}
            </Title>
            {error ? (
              <Alert color="red" data-testid="import-error">
                {error}
              </Alert>
            ) : null}
            <label>
              <Text size="sm" fw={500}>
                {t("import.images")}
              </Text>
              <Text size="xs" c="dimmed">
                {t("import.imagesHint")}
              </Text>
              <input type="file" name="images" multiple accept="image/*" data-testid="import-images" />
            </label>
            <TextInput
              name="translateLanguage"
              label={t("import.translate")}
              description={t("import.translateHint")}
            />
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
