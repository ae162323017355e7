import type { Plan, Role } from "./tables";

/** Who is calling, once a credential has been accepted. */
export interface Principal {
  /** Null for a web session (JWT) and for an app token. */
  keyId: number | null;
  /** Set for an app token (group P). */
  appId: number | null;
  userId: number;
  role: Role;
  plan: Plan;
  /** Empty means full access: a key created without scopes, or the user's own session. */
  scopes: string[];
  /**
   * Set for a tenant key (group C): the tenant it acts for, the sites it is bound to (null: all),
   * and the account that owns the tenant (its hourly, operator-paid budgets count there too).
   */
  tenant?: { id: number; siteIds: number[] | null; accountId: number | null };
}
