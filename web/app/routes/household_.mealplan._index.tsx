/** /household/mealplan: the planner lives one level down (Mealie's path), keeping the query. */
import { redirect } from "react-router";
import type { LoaderArgs } from "../lib/context.js";

export function loader({ request }: LoaderArgs): never {
  throw redirect(`/household/mealplan/planner/view${new URL(request.url).search}`);
}

export default function MealplanIndex() {
  return null;
}
