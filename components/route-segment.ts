/** A dynamic route segment as the page receives it, decoded once; text that is not valid
 *  percent-encoding (already decoded by the router) is kept as it is. */
export function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
