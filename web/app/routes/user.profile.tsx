/** /user/profile (spec §2): the user's details, password change with the strength meter, API tokens. */
import { data, type MetaFunction } from "react-router";
import { useLoaderData } from "react-router";
import { Title } from "@mantine/core";
import { ApiTokens } from "../components/profile/ApiTokens.js";
import { DetailsForm } from "../components/profile/DetailsForm.js";
import { PasswordForm } from "../components/profile/PasswordForm.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { changePassword, createToken, deleteToken, updateDetails } from "../lib/profile.server.js";
import { requireUserActor } from "../lib/session.server.js";
import type { LoaderArgs, ActionArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "shell")("profile.title")} | ${metaT(matches)("appName")}` },
];

export async function loader({ request, context }: LoaderArgs) {
  const actor = await requireUserActor(request, context);
  const u = actor.user;
  return {
    user: { username: u.username, fullName: u.fullName, email: u.email, authMethod: u.authMethod },
    tokens: context.larder.auth.listTokens(u.id),
  };
}

export async function action({ request, context }: ActionArgs) {
  const actor = await requireUserActor(request, context);
  const form = await request.formData();
  const t = serverT(request, "shell");
  switch (form.get("intent")) {
    case "details":
      return updateDetails(context, actor, form, t);
    case "password":
      return changePassword(context, actor, form, t);
    case "createToken":
      return createToken(context, actor, form, t);
    case "deleteToken":
      return deleteToken(context, actor, form, t);
    default:
      throw data("Unknown intent", { status: 400 });
  }
}

export default function Profile() {
  const { user, tokens } = useLoaderData<typeof loader>();
  const t = useT("shell");
  return (
    <div className="page">
      <div className="profile">
        <Title order={1} className="page__title">
          {t("profile.title")}
        </Title>
        <DetailsForm user={user} />
        <PasswordForm authMethod={user.authMethod} />
        <ApiTokens tokens={tokens} />
      </div>
    </div>
  );
}
