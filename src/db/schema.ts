// Every group's tables, for drizzle-kit to generate the migrations from.
export * from "../accounts/schema";
export * from "../pickup/schema";
export * from "../platform/jobs/tables";
export * from "../platform/auth/tables";
export { idempotentRequests } from "../platform/idempotency";
export { accountRooms } from "../platform/account-rooms";
export * from "../reference/schema";
export * from "../tax/schema";
export * from "../content/schema";
export * from "../miniprograms/schema";
