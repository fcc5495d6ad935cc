/** The built-in migrations plugins, one folder each (`plugins/migrations/<name>/`). Keep this module light: a plugin loads heavy code on first use. */
export const migrations: readonly unknown[] = [];
