import type { Plan, Role } from "./tables";

/** Who is calling, once a credential has been accepted. */
export interface Principal {
  keyId: number;
  userId: number;
  role: Role;
  plan: Plan;
  scopes: string[];
}
