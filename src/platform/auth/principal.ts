import type { Plan, Role } from "./tables";

/**
 * Who is calling, once a credential has been accepted. A group whose credential says more (an
 * app, a tenant) adds its field from its own folder, by augmenting this interface (`declare module`).
 */
export interface Principal {
  /** Null for a web session (JWT) and for a credential that is no key of the platform's. */
  keyId: number | null;
  userId: number;
  role: Role;
  plan: Plan;
  /** Empty means full access: a key created without scopes, or the user's own session. */
  scopes: string[];
  /** Whom the plan's limits count, when not the user (`tenant:7`): more keys, apps or sessions buy no more requests. */
  limitSubject?: string;
  /**
   * An account whose hourly budgets (those the operator pays for) count this caller together
   * with the account's other callers, and the refusal a caller gets when that budget is spent.
   */
  payingAccount?: { id: number; spent: string };
  /**
   * The limit of a person at a screen (the console's session), which replaces the plan's: sized
   * for people, counted per `subject` (a member in a tenant), refused in words that name no plan.
   */
  personLimit?: { subject: string; perMinute: number };
  /** The credential a group accepted beyond the user's keys and sessions (`app:7`): its idempotency keys are its own. */
  credential?: string;
}
