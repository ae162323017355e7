// No imports: the admin console bundles this too, to name ads as the audit log names them.

/** How an ad is named to its editors: the name they gave it, else its id (an ad being made has none yet); and its slot. */
export const adName = (ad: { id?: number; name?: string | null; slot: string }) => `${ad.name || (ad.id ? `ad #${ad.id}` : "an ad")} (${ad.slot})`;
