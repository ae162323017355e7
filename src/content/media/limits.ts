// No imports: the admin console bundles this too, to refuse a file the service would refuse before sending it.

/** The largest file a site's media takes. */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;
