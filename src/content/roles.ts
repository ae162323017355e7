/** A member's roles in a tenant, from the most to the least. */
export const MEMBER_ROLES = ["owner", "editor", "author", "viewer"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

const ROLE_RANK: Record<MemberRole, number> = { viewer: 0, author: 1, editor: 2, owner: 3 };

/** Viewer reads, author writes own drafts, editor publishes, owner manages members, keys and settings: whether `role` reaches `needed`. */
export const roleReaches = (role: MemberRole, needed: MemberRole) => ROLE_RANK[role] >= ROLE_RANK[needed];
