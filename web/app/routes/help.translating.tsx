/**
 * /help/translating: the translation guide (docs/translating.md), linked from the language dialog. The
 * Markdown is read at build time and rendered on the server with the sanitising renderer.
 */
import type { MetaFunction } from "react-router";
import { useLoaderData } from "react-router";
import guide from "../../../docs/translating.md?raw";
import { PlainLayout } from "../components/shell/PlainLayout.js";
import { metaT } from "../lib/i18n.js";
import { languageList } from "../lib/i18n.server.js";
import { renderMarkdown } from "../lib/markdown.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "shell")("help.translating")} | ${metaT(matches)("appName")}` },
];

export function loader() {
  return { html: renderMarkdown(guide), languages: languageList() };
}

export default function TranslatingGuide() {
  const { html, languages } = useLoaderData<typeof loader>();
  return (
    <PlainLayout>
      <main className="page" id="main" tabIndex={-1}>
        <article className="prose" dangerouslySetInnerHTML={{ __html: html }} />
        <table className="nutrition">
          <tbody>
            {languages.map((l) => (
              <tr key={l.code}>
                <th scope="row">{l.name}</th>
                <td dir="ltr">
                  {l.code} · {l.progress}%
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </main>
    </PlainLayout>
  );
}
