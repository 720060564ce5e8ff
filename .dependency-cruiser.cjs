/**
 * What may import what in src/ and bench/, checked by test/architecture/layers.test.ts (docs/ARCHITECTURE.md,
 * "Invariants"). LAYERS is the one list: each folder of src/ may import its own files and the folders of the
 * layers below its own, nothing above and nothing beside it. An import no rule allows is an error, so a new
 * folder fails until it is given a layer. Type-only imports count: a type is as much a dependency as a value.
 */

/**
 * Top to bottom. The composition root (app/ with src/main.ts, src/worker.ts, src/index.ts) is above them all;
 * store/ is next, so only the root chooses a store (the interfaces live beside their users, below).
 */
const LAYERS = [
  ["store"],
  ["cli", "web"],
  ["triggers"],
  ["jobs"],
  ["installations", "transcripts", "metrics", "summary", "insights"],
  ["context", "mcp"],
  ["chain"],
  ["review"],
  ["learnings", "dependencies"],
  ["config", "report"],
  ["plan", "workspace"],
  ["agent"],
  ["tools"],
  ["queue"],
  ["github"],
  ["net", "text", "secrets"],
];

const DRIVERS = ["better-sqlite3", "ioredis"];
const folders = (names) => `^src/(${names.join("|")})/`;

const layerRules = LAYERS.flatMap((layer, i) => {
  const below = LAYERS.slice(i + 1).flat();
  return layer.map((folder) => ({
    from: { path: folders([folder]) },
    to: { path: below.length > 0 ? folders([folder, ...below]) : folders([folder]) },
  }));
});

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  LAYERS,
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycle, type-only imports included: a cycle makes its files one unit that cannot be read or moved apart.",
      severity: "error",
      from: { path: "^(src|bench)/" },
      to: { circular: true },
    },
    {
      name: "drivers-only-in-store",
      comment: "Only store/ opens SQLite or Redis; everything else uses the interfaces beside their users.",
      severity: "error",
      from: { path: "^(src|bench)/", pathNot: "^src/store/" },
      to: { dependencyTypes: ["npm", "npm-dev", "npm-optional", "npm-peer", "npm-no-pkg", "npm-unknown"], path: `^node_modules/(${DRIVERS.join("|")})/` },
    },
  ],
  allowedSeverity: "error",
  allowed: [
    { comment: "Packages and Node's own modules (the drivers rule above narrows them).", from: {}, to: { pathNot: "^(src|bench|test)/" } },
    { comment: "The composition root chooses every implementation.", from: { path: "^src/(app/|main\\.ts$|worker\\.ts$|index\\.ts$)" }, to: { path: "^src/" } },
    { comment: "The benches drive the app and reuse the tests' fakes and fixtures.", from: { path: "^bench/" }, to: { path: "^(src|bench|test)/" } },
    ...layerRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: ["node_modules", "^test/"] },
    // The hard review set's application is the bench's data (plain JavaScript of its own), not crewbot's code.
    exclude: { path: "^(dist/|bench/review/hard/)" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".js", ".mjs", ".cjs", ".json"] },
  },
};
