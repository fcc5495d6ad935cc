/**
 * Request bodies about users, validated with the messages of spec §5 ("This Field is Required",
 * "Email Must Be Valid", "No Whitespace Allowed", "Must Be At Least 8 Characters", "passwords must
 * match"). Unknown fields are dropped, never stored: that is how `authMethod` cannot be chosen on
 * create and `password` cannot be changed through an update.
 */
import { z } from "zod";
import { EMAIL_RE, NewUserInput, SPEC_MESSAGES } from "./users-service.js";
import { MEALIE_LOCALES } from "../labels/locales.js";

/** The 41 locales Mealie ships (mealie-api-notes §15); registration's `locale` must be one of them. */
export const SUPPORTED_LOCALES = MEALIE_LOCALES;

const required = (s: z.ZodString) => s.min(1, SPEC_MESSAGES.required);
const requiredString = () => z.string({ error: SPEC_MESSAGES.required });

export const usernameField = required(requiredString().trim())
  .max(100, SPEC_MESSAGES.maxLength(100))
  .regex(/^\S+$/, SPEC_MESSAGES.noWhitespace);
// A display name ends up in e-mail bodies and headers: line breaks and NUL are not part of a name.
export const fullNameField = required(requiredString().trim())
  .max(200, SPEC_MESSAGES.maxLength(200))
  .regex(/^[^\r\n\u0000]*$/, "No Line Breaks Allowed");
export const emailField = required(requiredString().trim())
  .max(254, SPEC_MESSAGES.maxLength(254))
  .regex(EMAIL_RE, SPEC_MESSAGES.email);
export const passwordField = NewUserInput.shape.password;

const flag = z.boolean().optional();
const optionalName = z.string().trim().max(200).nullish();

/** POST /users and /admin/users (`UserIn`): group and household by name; authMethod is not taken. */
export const UserCreateBody = NewUserInput.extend({
  group: optionalName,
  household: optionalName,
  showAnnouncements: z.boolean().optional(),
});
export type UserCreateBody = z.output<typeof UserCreateBody>;

/**
 * PUT /users/{id} (`UserBase`) and PUT /admin/users/{id} (`UserOut`). Every field but `email` may be
 * left out, and an absent (or null) field keeps its value, so a client sending a partial user does
 * not demote or move anyone by accident.
 */
export const UserUpdateBody = z.object({
  email: emailField,
  username: usernameField.optional(),
  fullName: fullNameField.optional(),
  admin: flag,
  advanced: flag,
  canInvite: flag,
  canManage: flag,
  canManageHousehold: flag,
  canOrganize: flag,
  showAnnouncements: flag,
  lastReadAnnouncement: z.string().max(100).nullish(),
  group: optionalName,
  household: optionalName,
  groupId: z.string().max(100).nullish(),
  householdId: z.string().max(100).nullish(),
});
export type UserUpdateBody = z.output<typeof UserUpdateBody>;

/** POST /users/register (`CreateUserRegistration`); e-mail and username are trimmed and lower-cased. */
export const RegistrationBody = z
  .object({
    group: z.string().trim().max(200).nullish(),
    household: z.string().trim().max(200).nullish(),
    groupToken: z.string().max(200).nullish(),
    email: required(requiredString().trim().toLowerCase())
      .max(254, SPEC_MESSAGES.maxLength(254))
      .regex(EMAIL_RE, SPEC_MESSAGES.email),
    username: required(requiredString().trim().toLowerCase())
      .max(100, SPEC_MESSAGES.maxLength(100))
      .regex(/^\S+$/, SPEC_MESSAGES.noWhitespace),
    fullName: fullNameField,
    password: passwordField,
    passwordConfirm: requiredString(),
    advanced: z.boolean().default(false),
    private: z.boolean().default(false),
    seedData: z.boolean().default(false),
    locale: z.enum(SUPPORTED_LOCALES, { error: "Unsupported locale" }).default("en-US"),
  })
  .superRefine((b, ctx) => {
    if (b.password !== b.passwordConfirm)
      ctx.addIssue({ code: "custom", path: ["passwordConfirm"], message: SPEC_MESSAGES.passwordsMatch });
    // An empty token counts as given (and is refused by the gate), as in Mealie.
    if (!b.group && (b.groupToken === null || b.groupToken === undefined)) {
      ctx.addIssue({ code: "custom", path: ["group"], message: SPEC_MESSAGES.required });
    }
  });
export type RegistrationBody = z.output<typeof RegistrationBody>;

/** PUT /users/password (`ChangePassword`). */
export const ChangePasswordBody = z.object({
  currentPassword: z.string().max(256).default(""),
  newPassword: passwordField,
});

/** POST /users/forgot-password: any string; a malformed address simply matches nobody. */
export const ForgotPasswordBody = z.object({ email: requiredString().max(320) });

/**
 * POST /users/reset-password. Mealie ignores `email` and `passwordConfirm`; Larder checks the
 * confirmation when it is sent, with the same message as registration.
 */
export const ResetPasswordBody = z
  .object({
    token: required(requiredString()).max(200),
    email: z.string().max(320).optional(),
    password: passwordField,
    passwordConfirm: z.string().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.passwordConfirm !== undefined && b.passwordConfirm !== b.password) {
      ctx.addIssue({ code: "custom", path: ["passwordConfirm"], message: SPEC_MESSAGES.passwordsMatch });
    }
  });

/** PUT /households/permissions (`SetPermissions`). */
export const SetPermissionsBody = z.object({
  userId: required(requiredString()).max(100),
  canManageHousehold: z.boolean().default(false),
  canManage: z.boolean().default(false),
  canInvite: z.boolean().default(false),
  canOrganize: z.boolean().default(false),
});
export type SetPermissionsBody = z.output<typeof SetPermissionsBody>;
