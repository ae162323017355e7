// No imports: the settings' schema reads these at startup, without the upload's code.

/** What a theme's files may add up to once unpacked: checked on the sizes the zip declares, each file then held to its own. */
export const MAX_UNPACKED_BYTES = 60 * 1024 * 1024;

/** What the uploaded themes of all a tenant's sites may take, unpacked, unless THEME_BYTES_PER_TENANT says otherwise: 200 MB. */
export const DEFAULT_THEME_BYTES_PER_TENANT = 200 * 1024 * 1024;
