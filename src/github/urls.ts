/** `https://host/o/r.git` → `https://host/o/r`, for links to branches and commits. */
export const webUrl = (cloneUrl: string) => cloneUrl.replace(/\.git$/, "");
