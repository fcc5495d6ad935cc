/**
 * Form rules of spec §5, shared by the browser (as-you-type) and actions (the server re-checks). A rule
 * returns a message of the common catalogue (`validation.*`, with its values) or null; the component
 * translates it, so the English text is exactly the spec's.
 */

export interface Problem {
  key: string;
  values?: Record<string, number | string>;
}

export type Rule = (value: string) => Problem | null;

/** Spec §9: password minimum 8. */
export const PASSWORD_MIN = 8;

// The pattern core uses for e-mail (core/users/users-service.ts EMAIL_RE), so both sides agree.
const EMAIL_RE = /^[^\s@\u0000]+@[^\s@\u0000]+\.[^\s@\u0000]+$/;

export const rules = {
  required: (v: string) => (v.trim() ? null : { key: "validation.required" }),
  email: (v: string) => (!v || EMAIL_RE.test(v.trim()) ? null : { key: "validation.email" }),
  noWhitespace: (v: string) => (!v || !/\s/.test(v) ? null : { key: "validation.noWhitespace" }),
  url: (v: string) => {
    if (!v) return null;
    try {
      const u = new URL(v);
      return u.protocol === "http:" || u.protocol === "https:" ? null : { key: "validation.url" };
    } catch {
      return { key: "validation.url" };
    }
  },
  /** Empty values pass (spec §5); combine with `required` when needed. */
  minLength: (n: number) => (v: string) =>
    !v || v.length >= n ? null : { key: "validation.minLength", values: { n } },
  maxLength: (n: number) => (v: string) =>
    !v || v.length <= n ? null : { key: "validation.maxLength", values: { n } },
} satisfies Record<string, Rule | ((n: number) => Rule)>;

/** The first rule that fails, or null. */
export function check(value: string, ...list: Rule[]): Problem | null {
  for (const rule of list) {
    const p = rule(value);
    if (p) return p;
  }
  return null;
}

/** Spec §5 password confirmation. */
export function passwordsMatch(password: string, confirm: string): Problem | null {
  return password === confirm ? null : { key: "validation.passwordsMatch" };
}

export type Problems<K extends string> = Partial<Record<K, Problem>>;

export function hasProblems(p: Problems<string>): boolean {
  return Object.values(p).some(Boolean);
}
