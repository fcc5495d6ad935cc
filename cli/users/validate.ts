/**
 * Validate user input with core's own schema before touching the folder or the server, so the CLI
 * prints the same messages as the API and the UI ("Must Be At Least 8 Characters") and exits 2.
 */
import type { z } from "zod";
import { NewUserInput } from "../../core/users/users-service.js";
import { CliError, EXIT, type Issue } from "../output.js";

/** Schema field → the option a person typed. */
const OPTION: Record<string, string> = {
  username: "username",
  fullName: "full-name",
  email: "email",
  password: "password",
};

function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((i) => {
    const key = String(i.path[0] ?? "");
    return { field: OPTION[key] ?? key, message: i.message };
  });
}

export function validateNewUser(input: {
  username?: string;
  fullName?: string;
  email?: string;
  password: string;
  admin: boolean;
}): z.output<typeof NewUserInput> {
  const parsed = NewUserInput.safeParse(input);
  if (!parsed.success) throw new CliError("Invalid user", EXIT.invalid, issuesOf(parsed.error));
  return parsed.data;
}

export function validatePassword(password: string): string {
  const parsed = NewUserInput.shape.password.safeParse(password);
  if (!parsed.success)
    throw new CliError(
      "Invalid password",
      EXIT.invalid,
      issuesOf(parsed.error).map((i) => ({ ...i, field: "password" })),
    );
  return parsed.data;
}
