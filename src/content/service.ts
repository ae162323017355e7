// Group C's face to other groups: they call these functions, never its routes or its tables.

/** Group A calls it when someone signs in with an email the identity provider has verified: their pending invitations make them members. */
export { acceptInvitations } from "./tenancy/invitations";
