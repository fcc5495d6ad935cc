/**
 * /admin/debug/parser (spec §2 developer section): run ingredient lines through one of the three
 * parsers (nlp, brute, openai) against the admin's group foods and units, and show what each part
 * became with the parser's confidence.
 */
import { useState } from "react";
import { data, type MetaFunction } from "react-router";
import { Button, Group, Paper, SegmentedControl, Stack, Table, Text, Textarea, Title } from "@mantine/core";
import { useFormAction } from "../components/admin/use-form-action.js";
import { attempt, field } from "../lib/admin.server.js";
import { requireGuards } from "../lib/guards.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "admin")("debug.parserTitle")} | ${metaT(matches)("appName")}` },
];

const PARSERS = ["nlp", "brute", "openai"] as const;
const MAX_LINES = 100;

export async function loader(args: LoaderArgs) {
  await requireGuards(args, { admin: true });
  return null;
}

export async function action(args: ActionArgs) {
  const actor = await requireGuards(args, { admin: true });
  const form = await args.request.formData();
  const t = serverT(args.request, "admin");
  const how = { t, log: args.context.larder.log };
  if (field(form, "intent") !== "parse") throw data("Unknown intent", { status: 400 });
  const lines = field(form, "lines")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, MAX_LINES);
  const parser = field(form, "parser");
  return attempt("parse", how, async () => {
    const parsed = await args.context.larder.parsers.parseMany(actor, { parser, ingredients: lines });
    return parsed.map((p) => ({
      input: p.input ?? "",
      quantity: p.ingredient.quantity,
      unit: p.ingredient.unit?.name ?? "",
      food: p.ingredient.food?.name ?? "",
      note: p.ingredient.note,
      known: {
        unit: Boolean(p.ingredient.unit && "id" in p.ingredient.unit && p.ingredient.unit.id),
        food: Boolean(p.ingredient.food && p.ingredient.food.id),
      },
      confidence: p.confidence.average,
    }));
  });
}

export default function DebugParser() {
  const t = useT("admin");
  const [parser, setParser] = useState<string>("nlp");
  const [lines, setLines] = useState("2 cups flour\n1 tbsp olive oil, divided\n3 large eggs");
  const run = useFormAction<
    Array<{
      input: string;
      quantity: number | null;
      unit: string;
      food: string;
      note: string;
      known: { unit: boolean; food: boolean };
      confidence: number | null;
    }>
  >();
  const rows = run.result?.ok ? (run.result.value ?? []) : [];
  return (
    <>
      <div className="page__header">
        <div>
          <Title order={1} className="page__title">
            {t("debug.parserTitle")}
          </Title>
          <p className="page__subtitle">{t("debug.parserHelp")}</p>
        </div>
      </div>
      <Paper withBorder radius="md" p="lg">
        <run.fetcher.Form method="post">
          <input type="hidden" name="intent" value="parse" />
          <input type="hidden" name="parser" value={parser} />
          <Stack gap="sm">
            <div>
              <Text size="sm" fw={500} mb={4} id="parser-label">
                {t("debug.parser")}
              </Text>
              <SegmentedControl
                aria-labelledby="parser-label"
                value={parser}
                onChange={setParser}
                data={PARSERS.map((p) => ({ value: p, label: t(`debug.parsers.${p}`) }))}
              />
            </div>
            <Textarea
              name="lines"
              label={t("debug.lines")}
              description={t("debug.linesHelp", { count: MAX_LINES })}
              autosize
              minRows={4}
              value={lines}
              onChange={(e) => setLines(e.currentTarget.value)}
              data-testid="parser-lines"
            />
            <Group>
              <Button type="submit" loading={run.busy} data-testid="parser-run">
                {t("debug.parse")}
              </Button>
            </Group>
          </Stack>
        </run.fetcher.Form>
      </Paper>
      {rows.length > 0 ? (
        <Paper withBorder radius="md" className="admin-table-wrap">
          <Table striped verticalSpacing="xs" data-testid="parser-results">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("debug.input")}</Table.Th>
                <Table.Th>{t("debug.quantity")}</Table.Th>
                <Table.Th>{t("debug.unit")}</Table.Th>
                <Table.Th>{t("debug.food")}</Table.Th>
                <Table.Th>{t("debug.note")}</Table.Th>
                <Table.Th>{t("debug.confidence")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{r.input}</Table.Td>
                  <Table.Td>{r.quantity ?? ""}</Table.Td>
                  <Table.Td>
                    {r.unit}
                    {r.unit && !r.known.unit ? (
                      <Text span c="dimmed" size="xs">
                        {" "}
                        ({t("debug.new")})
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    {r.food}
                    {r.food && !r.known.food ? (
                      <Text span c="dimmed" size="xs">
                        {" "}
                        ({t("debug.new")})
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{r.note}</Table.Td>
                  <Table.Td>{r.confidence === null ? "" : `${Math.round(r.confidence * 100)} %`}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      ) : null}
    </>
  );
}
