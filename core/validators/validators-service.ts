/**
 * Public availability checks (mealie-api-notes §4.14): each answers `{valid: true}` when nothing of
 * that name exists yet. User names and e-mails compare without case, like the rules that enforce them.
 */
import type { Parts } from "../parts.js";
import { ValidationError } from "../errors.js";
import { slugify } from "../util/slug.js";
import { isUuid } from "../util/ids.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "groups" | "recipes" | "users">;

export interface Validity {
  valid: boolean;
}

export class ValidatorsService {
  constructor(private readonly larder: Deps) {}

  userName(name: string | null): Validity {
    const n = required(name, "name").trim().toLowerCase();
    return { valid: !this.larder.users.all().some((u) => u.username.toLowerCase() === n) };
  }

  userEmail(email: string | null): Validity {
    const e = required(email, "email").trim().toLowerCase();
    return { valid: !this.larder.users.all().some((u) => u.email.toLowerCase() === e) };
  }

  /** A group name is taken when a group has it (any case) or its slug. */
  group(name: string | null): Validity {
    const n = required(name, "name").trim();
    const lower = n.toLowerCase();
    const slug = slugify(n);
    return {
      valid: !this.larder.groups
        .all()
        .some((g) => g.doc.data.name.toLowerCase() === lower || g.slug === slug),
    };
  }

  /** Households are named per group; without a group to ask about, any group's use counts. */
  household(name: string | null): Validity {
    const lower = required(name, "name").trim().toLowerCase();
    const taken = this.larder.groups
      .all()
      .some((g) => [...g.households.values()].some((h) => h.doc.data.name.toLowerCase() === lower));
    return { valid: !taken };
  }

  /** A recipe name is taken in a group when its slug names a recipe there. */
  recipe(groupId: string | null, name: string | null): Validity {
    const gid = required(groupId, "group_id");
    const slug = slugify(required(name, "name"));
    if (!isUuid(gid))
      throw new ValidationError([
        { loc: ["query", "group_id"], msg: "Input should be a valid UUID", type: "uuid_parsing" },
      ]);
    const g = this.larder.groups.byId(gid.toLowerCase()) ?? this.larder.groups.byId(gid);
    if (!g || !slug) return { valid: true };
    return { valid: !this.larder.recipes.store.slugTaken(g.slug, slug) };
  }
}

function required(v: string | null, name: string): string {
  if (v === null)
    throw new ValidationError([{ loc: ["query", name], msg: "Field required", type: "missing" }]);
  return v;
}
