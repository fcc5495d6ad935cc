import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/**", "dist/**", "build/**", ".demo/**", "bench/out/**", "public/**"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["warn", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["core/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            "@remix-run/*",
            "react-router",
            "@react-router/*",
            "ink",
            "react",
            "../web/*",
            "../cli/*",
          ],
        },
      ],
    },
  },
  {
    // web/app is bundled by Vite: it must never pull in a second core instance.
    files: ["web/app/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/consistent-type-imports": "off",
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/core/**"],
              allowTypeImports: true,
              message: "web/app takes core from the load context; import types only.",
            },
          ],
        },
      ],
    },
  },
);
