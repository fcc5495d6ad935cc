/**
 * /admin/debug/openai (spec §2 developer section, §7 POST /admin/debug/openai): ask the configured
 * OpenAI-compatible service a test question, optionally about an image, and show its answer or error.
 */
import { useState } from "react";
import { data, type MetaFunction } from "react-router";
import { Alert, Button, FileInput, Paper, Stack, Text, Title } from "@mantine/core";
import { useFormAction } from "../components/admin/use-form-action.js";
import { attempt, field } from "../lib/admin.server.js";
import { requireGuards } from "../lib/guards.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { MultipartLimitError, parseMultipartForm } from "../lib/multipart.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "admin")("debug.openaiTitle")} | ${metaT(matches)("appName")}` },
];

export async function loader(args: LoaderArgs) {
  await requireGuards(args, { admin: true });
  return null;
}

export async function action(args: ActionArgs) {
  const actor = await requireGuards(args, { admin: true });
  const t = serverT(args.request, "admin");
  const how = { t, log: args.context.larder.log };
  let form: FormData;
  try {
    form = await parseMultipartForm(args.request, {
      maxFileBytes: args.context.larder.config.maxUploadBytes,
      maxFiles: 1,
    });
  } catch (e) {
    if (e instanceof MultipartLimitError)
      return { intent: "debug", ok: false, toast: { type: "error" as const, message: t("debug.tooLarge") } };
    throw e;
  }
  if (field(form, "intent") !== "debug") throw data("Unknown intent", { status: 400 });
  const image = form.get("image");
  const bytes = image instanceof Blob && image.size > 0 ? Buffer.from(await image.arrayBuffer()) : null;
  return attempt("debug", how, () => args.context.larder.imports.aiDebug(actor, bytes));
}

export default function DebugOpenAI() {
  const t = useT("admin");
  const [file, setFile] = useState<File | null>(null);
  const run = useFormAction<{ success: boolean; response: string | null }>();
  const answer = run.result?.ok ? run.result.value : null;
  return (
    <>
      <div className="page__header">
        <div>
          <Title order={1} className="page__title">
            {t("debug.openaiTitle")}
          </Title>
          <p className="page__subtitle">{t("debug.openaiHelp")}</p>
        </div>
      </div>
      <Paper withBorder radius="md" p="lg">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const body = new FormData();
            body.set("intent", "debug");
            if (file) body.set("image", file);
            void run.fetcher.submit(body, { method: "post", encType: "multipart/form-data" });
          }}
        >
          <Stack gap="sm">
            <FileInput
              label={t("debug.image")}
              description={t("debug.imageHelp")}
              accept="image/*"
              clearable
              value={file}
              onChange={setFile}
            />
            <div>
              <Button type="submit" loading={run.busy} data-testid="openai-run">
                {t("debug.run")}
              </Button>
            </div>
          </Stack>
        </form>
      </Paper>
      {answer ? (
        <Alert
          color={answer.success ? "success" : "error"}
          variant="light"
          title={answer.success ? t("debug.success") : t("debug.failure")}
          data-testid="openai-result"
        >
          <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
            {answer.response ?? ""}
          </Text>
        </Alert>
      ) : null}
    </>
  );
}
