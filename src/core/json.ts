/**
 * Shared value types at the bottom of the module graph: the store, the REST layer, the features
 * and the plugin API all speak JSON values, and none of them should import another for it.
 */

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
