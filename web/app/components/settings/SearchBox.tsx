/** The list screens' search box: filters as one types (the `q` query parameter), and works without JavaScript. */
import { useEffect, useRef, useState } from "react";
import { Form, useSearchParams, useSubmit } from "react-router";
import { TextInput } from "@mantine/core";
import { SearchIcon } from "../shell/ShellIcons.js";

export function SearchBox({ label }: { label: string }) {
  const [params] = useSearchParams();
  const submit = useSubmit();
  const current = params.get("q") ?? "";
  const [value, setValue] = useState(current);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  return (
    <Form method="get" role="search" className="settings__search">
      <TextInput
        name="q"
        type="search"
        aria-label={label}
        placeholder={label}
        leftSection={<SearchIcon />}
        value={value}
        data-testid="settings-search"
        onChange={(e) => {
          const next = e.currentTarget.value;
          const form = e.currentTarget.form;
          setValue(next);
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), 300);
        }}
      />
    </Form>
  );
}
