/** The built-in parsers plugins, one folder each (`plugins/parsers/<name>/`). Keep this module light: a plugin loads heavy code on first use. */
export const parsers: readonly unknown[] = [];
