/**
 * "Parse ingredients": the rows still held as text go to the parser the person picked (a local
 * preference: nlp, brute or openai) and come back as amount, unit, food and note in the same rows.
 * Units and foods the group lacks are marked new; saving the recipe adds them.
 */
import { useEffect, useState } from "react";
import { useParams } from "react-router";
import { Button, Group, Select } from "@mantine/core";
import { useT } from "../../../lib/i18n.js";
import { toast } from "../../../lib/toast.js";
import type { Draft } from "../../../lib/recipe-edit.js";
import {
  PARSER_KEY,
  PARSERS,
  applyParsed,
  readParser,
  rowsToParse,
  type ParsedRow,
  type ParserChoice,
} from "../../../lib/parse-ingredients.js";

export function ParseIngredients({ draft, onChange }: { draft: Draft; onChange: (d: Draft) => void }) {
  const t = useT("create");
  const { groupSlug = "" } = useParams();
  const [parser, setParser] = useState<ParserChoice>("nlp");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    try {
      setParser(readParser(localStorage.getItem(PARSER_KEY)));
    } catch {
      // Storage blocked: the default parser.
    }
  }, []);

  const choose = (v: string | null) => {
    const next = readParser(v);
    setParser(next);
    try {
      localStorage.setItem(PARSER_KEY, next);
    } catch {
      // Storage blocked: the choice lasts for this page.
    }
  };

  const rows = rowsToParse(draft);
  const run = async () => {
    if (!rows.length) return;
    setBusy(true);
    try {
      const body = new FormData();
      body.set("parser", parser);
      body.set("lines", JSON.stringify(rows.map((r) => r.line)));
      const res = await fetch(`/g/${encodeURIComponent(groupSlug)}/parse-ingredients`, {
        method: "POST",
        body,
      });
      const answer = (await res.json()) as { ok: boolean; results?: ParsedRow[]; message?: string | null };
      if (!answer.ok || !answer.results) {
        toast.error(answer.message || t("parse.failed"));
        return;
      }
      onChange(applyParsed(draft, rows, answer.results));
      toast.success(t("parse.done", { count: rows.length }));
    } catch {
      toast.error(t("parse.failed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    // Wraps: on a 360 px phone the button and the parser's menu side by side were wider than the screen.
    <Group gap="xs" wrap="wrap" data-testid="parse-ingredients">
      <Button
        variant="default"
        onClick={() => void run()}
        loading={busy}
        disabled={!rows.length}
        data-testid="parse-button"
      >
        {t("parse.button", { count: rows.length })}
      </Button>
      <Select
        aria-label={t("parse.parser")}
        data={PARSERS.map((p) => ({ value: p, label: t(`parse.parsers.${p}`) }))}
        value={parser}
        onChange={choose}
        allowDeselect={false}
        w={190}
        data-testid="parse-parser"
      />
    </Group>
  );
}
