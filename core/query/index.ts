/** Listing, filtering, ordering and paging over in-memory collections (mealie-api-notes §3). */
export * from "./attributes.js";
export * from "./filter-eval.js";
export * from "./list.js";
export * from "./list-query.js";
export * from "./order.js";
export * from "./paginate.js";
export * from "./query-filter.js";
export * from "./values.js";
