/** A byte count as people read it in a reason: `512 KB`, `16 MB` (whole units, rounded). */
export function sizeText(bytes: number): string {
  const MB = 1024 * 1024;
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;
}
