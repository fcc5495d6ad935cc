/**
 * The admin's user form (spec §5): username, full name, e-mail and (on create) password are required;
 * the e-mail must look like one, a username has no whitespace, a password has at least 8 characters.
 * Group and household are chosen from the site's; the permission flags are switches, disabled when
 * the admin edits themselves (spec §6). Rules run as the admin types once a field was left, and again
 * on the server, whose answers ("username is taken") show on the fields.
 */
import { useEffect, useState } from "react";
import { PasswordField } from "../PasswordField.js";
import { Select, SimpleGrid, Stack, Switch, Text, TextInput } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { problemText } from "../profile/ProblemText.js";
import { useT } from "../../lib/i18n.js";
import { PASSWORD_MIN, check, rules, type Problem } from "../../lib/validation.js";
import { useFormAction } from "./use-form-action.js";

export interface UserFormInitial {
  id: string;
  username: string;
  fullName: string;
  email: string;
  group: string;
  household: string;
  admin: boolean;
  advanced: boolean;
  canInvite: boolean;
  canManage: boolean;
  canManageHousehold: boolean;
  canOrganize: boolean;
}

const FLAGS = ["admin", "advanced", "canInvite", "canManage", "canManageHousehold", "canOrganize"] as const;
type Flag = (typeof FLAGS)[number];

function blank(groups: { name: string; households: string[] }[]) {
  return {
    username: "",
    fullName: "",
    email: "",
    password: "",
    group: groups[0]?.name ?? "",
    household: groups[0]?.households[0] ?? "",
    admin: false,
    advanced: false,
    canInvite: false,
    canManage: false,
    canManageHousehold: false,
    canOrganize: false,
  };
}

export function UserFormDialog({
  opened,
  onClose,
  groups,
  initial,
  self,
}: {
  opened: boolean;
  onClose: () => void;
  groups: { name: string; households: string[] }[];
  /** null: create a user. */
  initial: UserFormInitial | null;
  /** The admin is editing themselves: permissions are read-only. */
  self: boolean;
}) {
  const t = useT("admin");
  const tc = useT("common");
  const creating = initial === null;
  const [values, setValues] = useState(() => ({ ...blank(groups), ...(initial ?? {}) }));
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const { result, busy, submit } = useFormAction(() => onClose());

  // A fresh form each time the dialog opens (for another user, or a new one).
  useEffect(() => {
    if (!opened) return;
    setValues({ ...blank(groups), ...(initial ?? {}) });
    setTouched({});
  }, [opened, initial?.id]);

  const local: Record<string, Problem | null> = {
    username: check(values.username, rules.required, rules.noWhitespace, rules.maxLength(100)),
    fullName: check(values.fullName, rules.required, rules.maxLength(200)),
    email: check(values.email, rules.required, rules.email),
    password: creating ? check(values.password, rules.required, rules.minLength(PASSWORD_MIN)) : null,
  };
  const server = result && !result.ok ? (result.problems ?? {}) : {};
  const errorOf = (k: string) => problemText(tc, (touched[k] ? local[k] : null) ?? server[k]);
  const text = (k: "username" | "fullName" | "email" | "password") => ({
    value: values[k],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const v = e.currentTarget.value;
      setValues((s) => ({ ...s, [k]: v }));
    },
    onBlur: () => setTouched((s) => ({ ...s, [k]: true })),
    error: errorOf(k),
    "data-testid": `user-form-${k}`,
  });
  const households = groups.find((g) => g.name === values.group)?.households ?? [];

  return (
    <AppDialog
      opened={opened}
      onClose={onClose}
      title={creating ? t("users.create") : t("users.editTitle", { name: initial.username })}
      submitLabel={creating ? tc("actions.create") : tc("actions.save")}
      keepOpen
      loading={busy}
      maxWidth={640}
      data-testid="user-form"
      onSubmit={() => {
        setTouched({ username: true, fullName: true, email: true, password: true });
        if (Object.values(local).some(Boolean)) return false;
        const { password, ...rest } = values;
        return submit(creating ? "create" : "update", {
          ...rest,
          ...(creating ? { password } : { id: initial.id }),
        });
      }}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t("users.username")} autoComplete="off" withAsterisk {...text("username")} />
          <TextInput label={t("users.fullName")} autoComplete="off" withAsterisk {...text("fullName")} />
          <TextInput
            label={t("users.email")}
            inputMode="email"
            autoComplete="off"
            withAsterisk
            {...text("email")}
          />
          {creating ? (
            <PasswordField
              label={t("users.password")}
              autoComplete="new-password"
              withAsterisk
              {...text("password")}
            />
          ) : null}
          <Select
            label={t("users.group")}
            data={groups.map((g) => g.name)}
            value={values.group}
            allowDeselect={false}
            onChange={(g) =>
              setValues((s) => ({
                ...s,
                group: g ?? s.group,
                household: groups.find((x) => x.name === g)?.households[0] ?? "",
              }))
            }
            data-testid="user-form-group"
          />
          <Select
            label={t("users.household")}
            data={households}
            value={values.household}
            allowDeselect={false}
            onChange={(h) => setValues((s) => ({ ...s, household: h ?? s.household }))}
            data-testid="user-form-household"
          />
        </SimpleGrid>
        <Text fw={600} size="sm" mt="xs">
          {t("users.permissions")}
        </Text>
        {self ? (
          <Text size="xs" c="dimmed" data-testid="user-form-self-note">
            {t("users.ownPermissions")}
          </Text>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {FLAGS.map((f: Flag) => (
            <Switch
              key={f}
              label={t(`users.flags.${f}`)}
              checked={values[f]}
              disabled={self}
              onChange={(e) => {
                const v = e.currentTarget.checked;
                setValues((s) => ({ ...s, [f]: v }));
              }}
              data-testid={`user-form-flag-${f}`}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </AppDialog>
  );
}
