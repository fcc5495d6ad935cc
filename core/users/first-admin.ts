/** Mealie's first-start account (mealie-api-notes §2): the demo login, and what isFirstLogin checks. */
export const FIRST_ADMIN = {
  username: "admin",
  email: "changeme@example.com",
  password: "MyPassword",
  fullName: "Change Me",
} as const;
export const FIRST_ADMIN_EMAIL = FIRST_ADMIN.email;
