/**
 * The recipe list's query (mealie-api-notes §4.6): Mealie's pagination and search plus the organizer
 * filters. Each filter value is an id or a slug (foods: an id or a name); several values match any
 * of them unless the filter's `requireAll…` is set. A cookbook ANDs its own filter and replaces the
 * organizer filters.
 */
import type { ListQuery } from "../query/list-query.js";

export interface RecipeFilters {
  categories?: readonly string[];
  tags?: readonly string[];
  tools?: readonly string[];
  foods?: readonly string[];
  /** A recipe has one household: several values always mean "any of them". */
  households?: readonly string[];
  requireAllCategories?: boolean;
  requireAllTags?: boolean;
  requireAllTools?: boolean;
  requireAllFoods?: boolean;
  /** A cookbook's id or slug (404 "cookbook not found"). */
  cookbook?: string | null;
}

export interface RecipeListQuery extends ListQuery, RecipeFilters {}
