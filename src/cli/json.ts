/** A JSON object as the CLI reads it off the wire: every field is looked at before it is trusted. */
export type Json = Record<string, unknown>;
