/**
 * Core's refusals as catalogue keys of the `admin` namespace, so the screens show them translated
 * (core speaks English, as the API does). admin-messages.test.ts checks the demo sentences against
 * core/policy/demo.ts. A sentence not listed here is shown as core wrote it.
 */
export const CORE_MESSAGE_KEYS: Readonly<Record<string, string>> = {
  "Cannot delete group with users": "admin:groups.hasUsers",
  "Cannot delete household with users": "admin:households.hasUsers",
  "Cannot delete the last household of a group": "admin:households.lastOne",
  "A group with this name already exists": "admin:groups.nameTaken",
  "you cannot delete yourself": "admin:users.cannotDeleteSelf",
  "the super user cannot be deleted": "admin:users.cannotDeleteSuperUser",
  "you cannot demote yourself": "admin:users.cannotDemoteSelf",
  "User Not Found": "admin:users.notFound",
  "Deleting users is disabled in the demo": "admin:demo.deleteUser",
  "The demo administrator's login cannot be changed in the demo": "admin:demo.changeAdminLogin",
  "Deleting groups is disabled in the demo": "admin:demo.deleteGroup",
  "Deleting households is disabled in the demo": "admin:demo.deleteHousehold",
  "Password reset links are disabled in the demo": "admin:demo.resetLink",
  "Restoring backups is disabled in the demo": "admin:demo.restoreBackup",
  "Deleting backups is disabled in the demo": "admin:demo.deleteBackup",
  "Uploading backups is disabled in the demo": "admin:demo.uploadBackup",
  "The first-time setup is already done": "onboarding:setup.alreadyDone",
  "Invalid token": "onboarding:reset.invalidToken",
  "Invalid group token": "onboarding:register.invalidToken",
  "User Registration is Disabled": "onboarding:register.disabled",
};

/** Spec §5's English messages (core/users/users-service.ts SPEC_MESSAGES) as common catalogue keys. */
export function validationKey(message: string): { key: string; values?: Record<string, number> } | null {
  const exact: Record<string, string> = {
    "This Field is Required": "validation.required",
    "Email Must Be Valid": "validation.email",
    "No Whitespace Allowed": "validation.noWhitespace",
    "passwords must match": "validation.passwordsMatch",
    "username is taken": "validation.usernameTaken",
    "email is taken": "validation.emailTaken",
    "A Name is Required": "validation.nameRequired",
  };
  if (exact[message]) return { key: exact[message] };
  const min = /^Must Be At Least (\d+) Characters$/.exec(message);
  if (min) return { key: "validation.minLength", values: { n: Number(min[1]) } };
  const max = /^Must Be At Most (\d+) Characters$/.exec(message);
  if (max) return { key: "validation.maxLength", values: { n: Number(max[1]) } };
  return null;
}
