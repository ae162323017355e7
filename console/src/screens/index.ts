import type { FC } from "hono/jsx/dom";
import type { Role } from "../api";
import { AdsScreen } from "./ads";
import { AuditScreen } from "./audit";
import { CategoriesScreen } from "./categories";
import { ContentEditor, ContentsScreen } from "./contents";
import { DashboardScreen } from "./dashboard";
import { KeysScreen } from "./keys";
import { MediaScreen } from "./media";
import { MembersScreen } from "./members";
import { MiniprogramScreen } from "./miniprogram";
import { MiniprogramsScreen } from "./miniprograms";
import { NotFoundScreen } from "./not-found";
import { RedirectsScreen } from "./redirects";
import { RolloutScreen, RolloutsScreen } from "./rollouts";
import { SettingsScreen } from "./settings";
import { TagsScreen } from "./tags";
import { ThemesScreen } from "./themes";
import { TrashScreen } from "./trash";

export interface ScreenProps {
  path: string;
  query: URLSearchParams;
}

/** The console's menu: each entry shown to the roles that may use its screen. */
export const NAVIGATION: { path: string; label: string; role: Role }[] = [
  { path: "/", label: "Dashboard", role: "viewer" },
  { path: "/contents", label: "Contents", role: "viewer" },
  { path: "/categories", label: "Categories", role: "viewer" },
  { path: "/tags", label: "Menus & tags", role: "viewer" },
  { path: "/media", label: "Media", role: "viewer" },
  { path: "/ads", label: "Ads", role: "viewer" },
  { path: "/themes", label: "Themes", role: "viewer" },
  { path: "/redirects", label: "Redirects", role: "viewer" },
  { path: "/members", label: "Members", role: "viewer" },
  { path: "/trash", label: "Trash", role: "viewer" },
  { path: "/settings", label: "Settings", role: "viewer" },
  // A person's own mini-programs (group D), whatever their role in the tenant.
  { path: "/miniprograms", label: "Mini-programs", role: "viewer" },
  { path: "/audit", label: "Audit log", role: "editor" },
  { path: "/keys", label: "API keys", role: "owner" },
];

const SCREENS: [RegExp, FC<ScreenProps>][] = [
  [/^\/$/, DashboardScreen],
  [/^\/contents$/, ContentsScreen],
  [/^\/contents\/(new|\d+)$/, ContentEditor],
  [/^\/categories$/, CategoriesScreen],
  [/^\/tags$/, TagsScreen],
  [/^\/media$/, MediaScreen],
  [/^\/ads$/, AdsScreen],
  [/^\/themes$/, ThemesScreen],
  [/^\/redirects$/, RedirectsScreen],
  [/^\/members$/, MembersScreen],
  [/^\/audit$/, AuditScreen],
  [/^\/keys$/, KeysScreen],
  [/^\/trash$/, TrashScreen],
  [/^\/settings$/, SettingsScreen],
  [/^\/miniprograms$/, MiniprogramsScreen],
  [/^\/miniprograms\/\d+$/, MiniprogramScreen],
  [/^\/miniprograms\/rollouts$/, RolloutsScreen],
  [/^\/miniprograms\/rollouts\/\d+$/, RolloutScreen],
];

export const screenFor = (path: string): FC<ScreenProps> => SCREENS.find(([pattern]) => pattern.test(path))?.[1] ?? NotFoundScreen;
