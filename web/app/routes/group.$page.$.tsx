/** Deeper old paths (/group/mealplan/planner/view …) move to /household/… too (see group.$page.tsx). */
export { loader, default } from "./group.$page.js";
