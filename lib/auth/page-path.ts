/** Header the proxy sets to the requested path and query, so a page guard can send the user
 *  back there after signing in. */
export const PATH_HEADER = "x-groupwatch-path";
