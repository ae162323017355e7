import js from "@eslint/js";
import tseslint from "typescript-eslint";
import regexp from "eslint-plugin-regexp";

export default tseslint.config(
  { ignores: ["node_modules", "dist", "build", ".wrangler", "migrations", "public/admin"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules over every TypeScript file, each read with the project that compiles it.
    files: ["**/*.ts", "**/*.tsx"],
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: {
      parserOptions: { project: ["./tsconfig.json", "./scripts/tsconfig.json", "./console/tsconfig.json"], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      // A route's handler and a Hono middleware are typed to return a promise: `async` without `await` is how they are written.
      "@typescript-eslint/require-await": "off",
      // The console's event handlers may be async: Hono's JSX ignores what they return.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // vitest's asymmetric matchers (expect.any, expect.stringMatching) are typed any, and so is wrangler's config reader.
    files: ["test/**/*.ts", "*.config.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    // Regular expressions run over request text: one that can backtrack super-linearly is an error.
    files: ["src/**/*.ts"],
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
      // Hono's `c.var` copies every variable of the request into a new object at each read: `c.get(name)` reads one.
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[object.property.name='var']", message: "Read a request variable with c.get(name): c.var copies them all." },
        // A cast to never switches off the check of whatever it is passed to (a route's answer, a validated body).
        { selector: "TSAsExpression > TSNeverKeyword", message: "No `as never`: it hides a type the checker should compare." },
      ],
    },
  },
  {
    // hono's own useEffect and useState let a screen already left come back (console/src/hooks.ts says how).
    files: ["console/src/**/*.ts", "console/src/**/*.tsx"],
    ignores: ["console/src/hooks.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "hono/jsx/dom", importNames: ["useEffect", "useState"], message: "Import useEffect and useState from the console's hooks." },
          ],
        },
      ],
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
