/**
 * Functions stay under ~80 lines (docs/ARCHITECTURE.md, "How the code should feel"): a longer one
 * does several things, and each deserves a name. This parses every .ts under src/ and bench/ with
 * the TypeScript compiler and names each function-like node with a body that spans more lines.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { tsFilesUnder } from "../helpers/source-files.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["src", "bench"];
const MAX_LINES = 80;

interface FunctionSpan {
  /** `src/web/handler.ts:42`, where the function starts. */
  where: string;
  name: string;
  lines: number;
}

/** The name a reader would look for: the declaration's own, else what it is assigned or passed to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return `${classNameOf(node.parent)}.constructor`;
  if (node.name) {
    const own = node.name.getText(source);
    return ts.isClassLike(node.parent) ? `${classNameOf(node.parent)}.${own}` : own;
  }
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(source).slice(0, 60)})`;
  return "(anonymous)";
}

function classNameOf(node: ts.Node): string {
  return ts.isClassLike(node) && node.name ? node.name.text : "(class)";
}

function functionSpans(file: string): FunctionSpan[] {
  const relative = path.relative(ROOT, file);
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const declaration = node as ts.FunctionLikeDeclaration;
      const start = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(declaration.getEnd()).line;
      spans.push({ where: `${relative}:${start + 1}`, name: nameOf(declaration, source), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

const SPANS = FOLDERS.flatMap((folder) => tsFilesUnder(path.join(ROOT, folder))).flatMap(functionSpans);

describe("function length", () => {
  it("finds the functions (the rule below is not vacuous)", () => {
    expect(SPANS.length).toBeGreaterThan(1000);
    expect(SPANS.some((s) => s.where.startsWith("src/agent/loop.ts:") && s.name === "runAgent")).toBe(true);
    expect(SPANS.some((s) => s.where.startsWith("bench/"))).toBe(true);
  });

  it(`no function in src/ or bench/ spans more than ${MAX_LINES} lines`, () => {
    const long = SPANS.filter((s) => s.lines > MAX_LINES).map((s) => `${s.where} ${s.name} (${s.lines} lines)`);
    expect(long).toEqual([]);
  });
});
