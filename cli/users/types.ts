/** What the user, group and household commands show and take, the same whichever way the folder is reached. */

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
  /** Clear a user's lockout, or (login null) every lockout. */
  unlock(login: string | null): Promise<{ unlocked: number }>;
  /** Make a user an administrator (with every permission flag), or take admin away. */
  setAdmin(login: string, admin: boolean): Promise<UserView>;
}

/** A group as `larder group list` shows it. */
export interface GroupView {
  id: string;
  name: string;
  slug: string;
  households: string[];
  users: number;
}

/** A household as `larder household list` shows it. */
export interface HouseholdView {
  id: string;
  name: string;
  slug: string;
  group: string;
  groupSlug: string;
  users: number;
}

/** Groups and households, over core or a live server. */
export interface PlacesBackend {
  readonly mode: "server" | "local";
  listGroups(): Promise<GroupView[]>;
  addGroup(name: string): Promise<GroupView>;
  /** All households, or those of one group (slug or name). */
  listHouseholds(group?: string): Promise<HouseholdView[]>;
  addHousehold(name: string, group?: string): Promise<HouseholdView>;
}
