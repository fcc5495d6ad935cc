/**
 * Recipe comments: the list, a box to add one, and edit/delete on the viewer's own (core allows the
 * author or an admin). Comment text is shown as plain text with its line breaks, never as HTML.
 */
import { useState } from "react";
import { ActionIcon, Button, Group, Paper, Stack, Text, Textarea } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useLanguage, useT } from "../../lib/i18n.js";
import { failedText, toast } from "../../lib/toast.js";
import type { CommentView } from "../../lib/recipe-types.js";
import { PencilIcon, TrashIcon } from "./icons.js";
import { useRecipeIntent } from "./use-recipe-intent.js";

function CommentItem({ c, action }: { c: CommentView; action: string }) {
  const t = useT("recipe");
  const tc = useT("common");
  const { lang } = useLanguage();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(c.text);
  const [confirm, setConfirm] = useState(false);
  const { call, busy } = useRecipeIntent(action);
  const when = new Date(c.createdAt).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });

  const save = async () => {
    const r = await call("commentUpdate", { id: c.id, text });
    if (r.ok) setEditing(false);
    else toast.error(failedText(tc("errors.somethingWentWrong"), r));
  };

  return (
    <Paper component="li" withBorder p="sm" radius="md" className="comment" data-testid="comment">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="xs" c="dimmed">
          {t("comments.by", { name: c.userName, date: when })}
        </Text>
        {c.mine && !editing ? (
          <Group gap={2} wrap="nowrap" className="no-print">
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={t("comments.edit")}
              onClick={() => setEditing(true)}
            >
              <PencilIcon />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              size="sm"
              color="red"
              aria-label={t("comments.delete")}
              onClick={() => setConfirm(true)}
            >
              <TrashIcon />
            </ActionIcon>
          </Group>
        ) : null}
      </Group>
      {editing ? (
        <Stack gap="xs" mt="xs">
          <Textarea
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            autosize
            minRows={2}
            aria-label={t("comments.edit")}
          />
          <Group gap="xs">
            <Button size="xs" onClick={() => void save()} loading={busy} disabled={!text.trim()}>
              {t("comments.save")}
            </Button>
            <Button size="xs" variant="subtle" onClick={() => (setEditing(false), setText(c.text))}>
              {tc("actions.cancel")}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Text className="comment__text" mt={4}>
          {c.text}
        </Text>
      )}
      <AppDialog
        opened={confirm}
        onClose={() => setConfirm(false)}
        title={t("comments.delete")}
        submitLabel={tc("actions.delete")}
        submitColor="red"
        onSubmit={async () => {
          const r = await call("commentDelete", { id: c.id });
          if (!r.ok) toast.error(failedText(tc("errors.somethingWentWrong"), r));
        }}
      >
        <Text>{t("comments.confirmDelete")}</Text>
      </AppDialog>
    </Paper>
  );
}

export function Comments({ comments, action }: { comments: CommentView[]; action: string }) {
  const t = useT("recipe");
  const tc = useT("common");
  const [text, setText] = useState("");
  const { call, busy } = useRecipeIntent(action);
  const post = async () => {
    if (!text.trim()) return;
    const r = await call("commentCreate", { text });
    if (r.ok) setText("");
    else toast.error(failedText(tc("errors.somethingWentWrong"), r));
  };
  return (
    <section className="recipe__comments no-print" aria-labelledby="comments-title">
      <h2 id="comments-title">{t("comments.title")}</h2>
      {comments.length ? (
        <Stack component="ul" gap="sm" className="comments">
          {comments.map((c) => (
            <CommentItem key={c.id} c={c} action={action} />
          ))}
        </Stack>
      ) : (
        <Text c="dimmed">{t("comments.none")}</Text>
      )}
      <Stack gap="xs" mt="md">
        <Textarea
          label={t("comments.add")}
          placeholder={t("comments.placeholder")}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          autosize
          minRows={2}
          data-testid="comment-input"
        />
        <Group>
          <Button
            onClick={() => void post()}
            loading={busy}
            disabled={!text.trim()}
            data-testid="comment-post"
          >
            {t("comments.post")}
          </Button>
        </Group>
      </Stack>
    </section>
  );
}
