import js from "@eslint/js";
import tseslint from "typescript-eslint";
import regexp from "eslint-plugin-regexp";

export default tseslint.config(
  { ignores: ["node_modules", "dist", "build", ".wrangler", "migrations", "public/docs/vendor", "public/admin"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Regular expressions run over request text: one that can backtrack super-linearly is an error.
    files: ["src/**/*.ts"],
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
      "no-console": ["error", { allow: ["log", "warn", "error", "table"] }],
    },
  },
);
