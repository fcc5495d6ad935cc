/**
 * /g/:groupSlug/recipes/timeline (spec §2): every recipe's timeline events in the group, newest or
 * oldest first and filtered by type (the reader's preferences), with events added (a photo too),
 * edited and deleted. Members only (a restricted drawer link). `?recipe=<slug>` narrows it to one
 * recipe: the recipe page's timeline dialog loads that, and posts its writes to this action.
 */
import type { LinksFunction, MetaFunction } from "react-router";
import { useLoaderData } from "react-router";
import { Title } from "@mantine/core";
import { Timeline } from "../components/timeline/Timeline.js";
import { coreCall } from "../lib/errors.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { requireGroupMember } from "../lib/session.server.js";
import { loadTimeline, runTimelineIntent } from "../lib/timeline.server.js";
import timelineStyles from "../styles/timeline.css?url";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";
import { stylesheet } from "../lib/stylesheets.js";

export const links: LinksFunction = () => [stylesheet(timelineStyles)];

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "timeline")("title")} | ${metaT(matches)("appName")}` },
];

export async function loader({ request, context, params }: LoaderArgs) {
  const { actor, groupSlug } = await requireGroupMember(request, context, params.groupSlug);
  const slug = new URL(request.url).searchParams.get("recipe");
  const data = await coreCall(() => loadTimeline(context, actor, slug));
  return { groupSlug, ...data };
}

export async function action({ request, context, params }: ActionArgs) {
  const { actor } = await requireGroupMember(request, context, params.groupSlug);
  return runTimelineIntent(request, context, actor);
}

export default function TimelinePage() {
  const data = useLoaderData<typeof loader>();
  const t = useT("timeline");
  return (
    <div className="page">
      <header className="page__header">
        <div>
          <Title order={1} className="page__title">
            {data.recipe ? t("titleFor", { name: data.recipe.name }) : t("title")}
          </Title>
          <p className="page__subtitle">{t("intro")}</p>
        </div>
      </header>
      <Timeline groupSlug={data.groupSlug} events={data.events} recipe={data.recipe} />
    </div>
  );
}
