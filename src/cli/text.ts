/** Any wire value as text: strings as they are, other values as JSON. */
export const str = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));
