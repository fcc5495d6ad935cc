/** The built-in notifiers plugins, one folder each (`plugins/notifiers/<name>/`). Keep this module light: a plugin loads heavy code on first use. */
export const notifiers: readonly unknown[] = [];
