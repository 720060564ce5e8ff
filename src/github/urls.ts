/** `https://host/o/r.git` → `https://host/o/r`: the repository's web page on GitHub or an Enterprise host, for links to branches, commits and files. */
export const webUrl = (cloneUrl: string): string => cloneUrl.replace(/\.git$/, "");
