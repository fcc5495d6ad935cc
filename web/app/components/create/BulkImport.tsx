/**
 * Bulk import from URLs: one URL a line; each is imported on its own request (two at a time), and its
 * row shows its status live (waiting, importing, imported with a link, or why it failed). A screen
 * reader hears each change through the list's live region.
 */
import { useRef, useState } from "react";
import { Link } from "react-router";
import { Badge, Button, Checkbox, Group, Stack, Text, Textarea, Title } from "@mantine/core";
import { useT } from "../../lib/i18n.js";
import { bulkUrls } from "../../lib/bulk-urls.js";
import { importProblemText, type ImportProblem } from "../../lib/import-problem.js";

type Status =
  | { state: "waiting" }
  | { state: "importing" }
  | { state: "done"; slug: string; name: string }
  | { state: "failed"; reason: string };

interface Row {
  url: string;
  status: Status;
}

type Answer =
  { ok: true; slug: string; name: string } | { ok: false; error: ImportProblem; message: string | null };

const AT_ONCE = 2;

export function BulkImport({ endpoint, groupSlug }: { endpoint: string; groupSlug: string }) {
  const t = useT("create");
  const tr = useT("recipe");
  const [text, setText] = useState("");
  const [tags, setTags] = useState(false);
  const [rows, setRows] = useState<Row[]>([]);
  const [running, setRunning] = useState(false);
  const [invalid, setInvalid] = useState<string[]>([]);
  const run = useRef(0);

  const setStatus = (i: number, status: Status) =>
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, status } : r)));

  const reasonOf = (a: Extract<Answer, { ok: false }>) => importProblemText(tr, a.error, a.message);

  const start = async () => {
    const { urls, rejected } = bulkUrls(text);
    setInvalid(rejected);
    if (!urls.length) return;
    const id = ++run.current;
    setRows(urls.map((url) => ({ url, status: { state: "waiting" } })));
    setRunning(true);
    let next = 0;
    const worker = async () => {
      while (next < urls.length && run.current === id) {
        const i = next++;
        setStatus(i, { state: "importing" });
        const body = new FormData();
        body.set("url", urls[i]);
        if (tags) body.set("includeTags", "on");
        try {
          const res = await fetch(endpoint, { method: "POST", body });
          const a = (await res.json()) as Answer;
          setStatus(
            i,
            a.ok ? { state: "done", slug: a.slug, name: a.name } : { state: "failed", reason: reasonOf(a) },
          );
        } catch {
          setStatus(i, { state: "failed", reason: tr("import.failed") });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, urls.length) }, worker));
    if (run.current === id) setRunning(false);
  };

  const done = rows.filter((r) => r.status.state === "done").length;
  const failed = rows.filter((r) => r.status.state === "failed").length;

  return (
    <Stack gap="md" data-testid="bulk-import">
      <Title order={2} size="h3">
        {t("bulk.title")}
      </Title>
      <Textarea
        label={t("bulk.urls")}
        description={t("bulk.urlsHint")}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        autosize
        minRows={3}
        maxRows={14}
        error={invalid.length ? t("bulk.invalid", { urls: invalid.join(", ") }) : undefined}
        data-testid="bulk-urls"
      />
      <Checkbox
        label={tr("import.includeTags")}
        checked={tags}
        onChange={(e) => setTags(e.currentTarget.checked)}
        data-testid="bulk-tags"
      />
      <Group justify="flex-end">
        <Button onClick={() => void start()} loading={running} data-testid="bulk-submit">
          {t("bulk.submit")}
        </Button>
      </Group>
      {rows.length ? (
        <>
          <Text size="sm" data-testid="bulk-summary">
            {t("bulk.summary", { done, failed, total: rows.length })}
          </Text>
          <ul className="import-status" aria-live="polite" aria-label={t("bulk.status")}>
            {rows.map((r, i) => (
              <li key={`${i}-${r.url}`} data-testid="bulk-row" data-state={r.status.state}>
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Badge
                    variant="light"
                    color={
                      r.status.state === "done"
                        ? "green"
                        : r.status.state === "failed"
                          ? "red"
                          : r.status.state === "importing"
                            ? "blue"
                            : "gray"
                    }
                    style={{ flex: "none" }}
                  >
                    {t(`bulk.state.${r.status.state}`)}
                  </Badge>
                  <div className="grow">
                    <Text size="sm" className="import-status__url">
                      {r.url}
                    </Text>
                    {r.status.state === "done" ? (
                      <Link to={`/g/${encodeURIComponent(groupSlug)}/r/${encodeURIComponent(r.status.slug)}`}>
                        {r.status.name}
                      </Link>
                    ) : r.status.state === "failed" ? (
                      <Text size="sm" c="red">
                        {r.status.reason}
                      </Text>
                    ) : null}
                  </div>
                </Group>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Stack>
  );
}
