/** The most bytes one request body may have (an API call, a message of a client over HTTP or stdio). */
export const MAX_BODY_BYTES = 256 * 1024;
