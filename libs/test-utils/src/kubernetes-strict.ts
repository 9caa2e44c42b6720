/**
 * Strict validation of rendered Kubernetes objects, as `kubeconform -strict` does: every field must
 * be one the object's kind declares. The OpenAPI validators kubernetes-models ships check types and
 * enums but let an unknown field through, so a misspelt `runAsNonroot` or `readinesProbe` would pass;
 * the same package's type declarations (generated from the Kubernetes OpenAPI document, and
 * cert-manager's from its CRDs) list each kind's fields, and the TypeScript compiler reads them.
 */
import path from 'node:path';
import type ts from 'typescript';
import { workspaceRoot } from './fixtures';
import type { KubeObject } from './kubernetes';
import { lazyPackage } from './lazy';

const typescript = lazyPackage<typeof ts>('typescript');

/** The module that declares a kind's interface, and the interface's name. */
function declarationOf(object: KubeObject): { module: string; name: string } {
  const group = object.apiVersion.startsWith('cert-manager.io/') ? '@kubernetes-models/cert-manager' : 'kubernetes-models';
  return { module: `${group}/${object.apiVersion}/${object.kind}`, name: `I${object.kind}` };
}

/** A program whose one source file names the interface of each kind in `objects`, in order. */
function rootTypes(objects: readonly KubeObject[]): { checker: ts.TypeChecker; types: ts.Type[] } {
  const ts = typescript();
  const root = path.join(workspaceRoot(), '__kubernetes_kinds__.ts');
  const kinds = objects.map(declarationOf);
  const source = [
    ...kinds.map(({ module, name }, index) => `import type { ${name} as Kind${index} } from '${module}';`),
    `export declare const kinds: [${kinds.map((_, index) => `Kind${index}`).join(', ')}];`,
  ].join('\n');
  const options: ts.CompilerOptions = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true, types: [] };
  const host = ts.createCompilerHost(options);
  const readFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError) => (fileName === root ? ts.createSourceFile(fileName, source, language) : readFile(fileName, language, onError));
  const program = ts.createProgram([root], options, host);
  const unresolved = ts.getPreEmitDiagnostics(program).filter((diagnostic) => diagnostic.file?.fileName === root);
  if (unresolved.length > 0) throw new Error(`no declaration for a kind: ${ts.flattenDiagnosticMessageText(unresolved[0]!.messageText, ' ')}`);
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(root)!;
  const declaration = file.statements.find(ts.isVariableStatement)!.declarationList.declarations[0]!;
  const tuple = checker.getTypeAtLocation(declaration.name) as ts.TypeReference;
  return { checker, types: [...checker.getTypeArguments(tuple)] };
}

/** Every field of `value` its declared `type` does not have, by path. */
function unknownFields(checker: ts.TypeChecker, value: unknown, type: ts.Type, at: string, found: string[]): void {
  const ts = typescript();
  if (value === null || typeof value !== 'object' || type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
  const declared = checker.getNonNullableType(type);
  if (Array.isArray(value)) {
    if (!checker.isArrayType(declared)) return;
    const element = checker.getTypeArguments(declared as ts.TypeReference)[0]!;
    value.forEach((member, index) => unknownFields(checker, member, element, `${at}[${index}]`, found));
    return;
  }
  // A union (IntOrString and the like) admits an object through its object members.
  const shapes = (declared.isUnion() ? declared.types : [declared]).filter((member) => member.flags & ts.TypeFlags.Object && !checker.isArrayType(member));
  if (shapes.length === 0) return;
  for (const [key, member] of Object.entries(value)) {
    const property = shapes.map((shape) => shape.getProperty(key)).find((each) => each !== undefined);
    const indexed = shapes.map((shape) => checker.getIndexTypeOfType(shape, ts.IndexKind.String)).find((each) => each !== undefined);
    if (property !== undefined) unknownFields(checker, member, checker.getTypeOfSymbol(property), `${at}.${key}`, found);
    else if (indexed !== undefined) unknownFields(checker, member, indexed, `${at}.${key}`, found);
    else found.push(`${at}.${key}`);
  }
}

/** `<kind> <name>: <path>` for every field no object's kind declares (none: the manifests are strict-valid). */
export function strictViolations(objects: readonly KubeObject[]): string[] {
  if (objects.length === 0) return [];
  const { checker, types } = rootTypes(objects);
  return objects.flatMap((object, index) => {
    const found: string[] = [];
    unknownFields(checker, object, types[index]!, '$', found);
    return found.map((field) => `${object.kind} ${object.metadata.name}: unknown field ${field}`);
  });
}
