// No imports: the admin console bundles this too, to say what the history and the room keep.

/** What the text of all a tenant's contents may take, every saved version counted, unless TEXT_BYTES_PER_TENANT says otherwise: 100 MB. */
export const DEFAULT_TEXT_BYTES_PER_TENANT = 100 * 1024 * 1024;

/** The saved versions a content keeps: a save past them lets the oldest go. */
export const VERSIONS_KEPT = 50;

/** What a saved version's record takes beside its text, counted in the room: without it, empty contents would cost nothing. */
export const VERSION_RECORD_BYTES = 256;
