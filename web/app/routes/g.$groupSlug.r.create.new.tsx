/**
 * /g/:groupSlug/r/create/new: create a recipe by name (spec §2), then edit it. New names must be unique
 * in the group (spec §5): checked as the user types (GET ?name=) and again on submit, through core's
 * validator. Works without JavaScript: a plain form post that redirects to the new recipe in edit mode.
 * The other ways to create (from a URL, from an image) wait for their API (lib/capabilities.ts).
 */
import { useEffect, useState } from "react";
import { redirect, type MetaFunction } from "react-router";
import { Form, useActionData, useFetcher, useNavigation } from "react-router";
import { Button, Group, Paper, Stack, TextInput, Title } from "@mantine/core";
import { useT, metaT } from "../lib/i18n.js";
import { requireGroupMember } from "../lib/session.server.js";
import { diskRefusal } from "../lib/errors.server.js";
import { failedText } from "../lib/toast.js";
import type { LoaderArgs, ActionArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "recipe")("create.title") }];

type NameError = "required" | "taken" | "failed";

function nameTaken(context: LoaderArgs["context"], groupId: string, name: string): boolean {
  return !context.larder.validators.recipe(groupId, name).valid;
}

/** Members of the group only; `?name=` answers whether that name is free. */
export async function loader({ request, context, params }: LoaderArgs) {
  const { actor } = await requireGroupMember(request, context, params.groupSlug);
  const name = new URL(request.url).searchParams.get("name")?.trim();
  return { taken: name ? nameTaken(context, actor.user.groupId, name) : false };
}

export async function action({
  request,
  context,
  params,
}: ActionArgs): Promise<{ error: NameError; name: string; message?: string }> {
  const { actor, groupSlug } = await requireGroupMember(request, context, params.groupSlug);
  const form = await request.formData();
  const name = String(form.get("name") ?? "").trim();
  if (!name) return { error: "required", name };
  if (nameTaken(context, actor.user.groupId, name)) return { error: "taken", name };
  let slug: string;
  try {
    slug = await context.larder.recipes.create(actor, { name });
  } catch (e) {
    const refused = diskRefusal(context.larder.log, `creating recipe "${name}"`, e);
    if (refused) return { error: "failed", name, message: refused };
    context.larder.log.warn(
      `creating recipe "${name}" failed: ${e instanceof Error ? e.message : String(e)}`,
    );
    return { error: "failed", name };
  }
  throw redirect(`/g/${groupSlug}/r/${encodeURIComponent(slug)}?edit=true`);
}

export default function CreateRecipe() {
  const t = useT("recipe");
  const tc = useT("common");
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const check = useFetcher<typeof loader>();
  const [name, setName] = useState(result?.name ?? "");
  const [checked, setChecked] = useState<string | null>(null);

  // Ask whether the name is free once the user pauses typing.
  useEffect(() => {
    const n = name.trim();
    if (!n) return;
    const timer = setTimeout(() => {
      setChecked(n);
      check.load(`?name=${encodeURIComponent(n)}`);
    }, 300);
    return () => clearTimeout(timer);
  }, [name]);

  const liveTaken = checked === name.trim() && check.state === "idle" && check.data?.taken;
  const serverError = result && result.name === name ? result.error : null;
  const error =
    liveTaken || serverError === "taken"
      ? t("create.nameTaken")
      : serverError === "required"
        ? tc("validation.required")
        : serverError === "failed"
          ? failedText(t("create.failed"), { ok: false, ...result })
          : null;

  return (
    <div className="page">
      <Paper withBorder radius="md" p="lg" maw={640} mx="auto">
        <Form method="post">
          <Stack gap="md">
            <Title order={1} size="h2">
              {t("create.title")}
            </Title>
            <TextInput
              name="name"
              label={t("create.name")}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error}
              withAsterisk
              autoFocus
              data-testid="create-name"
            />
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={navigation.state !== "idle"}
                disabled={Boolean(liveTaken)}
                data-testid="create-submit"
              >
                {t("create.submit")}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </div>
  );
}
