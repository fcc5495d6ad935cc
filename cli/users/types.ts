/** The user operations the CLI needs, implemented over core (local.ts) or a live server (server.ts). */

/** A user as the CLI shows it (the same in both modes). */
export interface UserView {
  id: string;
  username: string;
  fullName: string;
  email: string;
  admin: boolean;
  group: string;
  household: string;
}

/** Already validated with core's NewUserInput; group and household as given on the command line. */
export interface NewUser {
  username: string;
  fullName: string;
  email: string;
  password: string;
  admin: boolean;
  group?: string;
  household?: string;
}

export interface UserBackend {
  /** "server" when the writes go through a live server's API. */
  readonly mode: "server" | "local";
  list(): Promise<UserView[]>;
  add(user: NewUser): Promise<UserView>;
  /** `login` is a username or e-mail (Mealie's login lookup). */
  setPassword(login: string, password: string): Promise<UserView>;
}
