import type { ContentStatus } from "./schema";

/**
 * A content's status now: a scheduled content whose time has passed is published, with no job
 * flipping the stored row (which keeps what the editor chose). Used by the admin API and the console.
 */
export const statusAt = (content: { status: ContentStatus; publishAt: string | null }, now: string): ContentStatus =>
  content.status === "scheduled" && content.publishAt !== null && content.publishAt <= now ? "published" : content.status;
