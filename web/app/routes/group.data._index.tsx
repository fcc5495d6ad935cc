/** /group/data: data management opens on its first page, the foods. */
import { redirect } from "react-router";
import { settingsViewer } from "../lib/settings.server.js";
import type { LoaderArgs } from "../lib/context.js";

export async function loader(args: LoaderArgs): Promise<never> {
  await settingsViewer(args, { canOrganize: true });
  throw redirect("/group/data/foods");
}

export default function DataIndex() {
  return null;
}
