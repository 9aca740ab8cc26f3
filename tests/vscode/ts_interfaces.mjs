// Prints the exported interfaces of a TypeScript file as JSON, for test_protocol_types.py:
// {"Name": {"key": {"optional": bool, "type": "<canonical type>"}}}. Canonical types are
// `string`, `number`, `boolean`, `null`, `unknown`, `"literal"`, `T[]`, `{K: V}` (Record), an
// interface's name, and unions
// of those, sorted and joined by `|`; type aliases are resolved. Read with the TypeScript
// compiler's own parser (the extension's devDependency), not with regexes.
// Usage: node ts_interfaces.mjs <extension folder> <file.ts>
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const [extensionDir, file] = process.argv.slice(2);
const ts = createRequire(resolve(extensionDir, 'package.json'))('typescript');
const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);

const aliases = new Map();
const interfaces = new Map();
for (const statement of source.statements) {
  if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
  if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
}

/** The alternatives of a type node, each canonical. */
function alternatives(node) {
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword: return ['string'];
    case ts.SyntaxKind.NumberKeyword: return ['number'];
    case ts.SyntaxKind.BooleanKeyword: return ['boolean'];
    case ts.SyntaxKind.NullKeyword: return ['null'];
    case ts.SyntaxKind.UnknownKeyword: return ['unknown'];
    case ts.SyntaxKind.AnyKeyword: return ['unknown'];
    case ts.SyntaxKind.ParenthesizedType: return alternatives(node.type);
    case ts.SyntaxKind.UnionType: return node.types.flatMap(alternatives);
    case ts.SyntaxKind.ArrayType: return [`${wrap(canonical(node.elementType))}[]`];
    case ts.SyntaxKind.LiteralType: {
      const lit = node.literal;
      if (lit.kind === ts.SyntaxKind.NullKeyword) return ['null'];
      if (lit.kind === ts.SyntaxKind.TrueKeyword) return ['true'];
      if (lit.kind === ts.SyntaxKind.FalseKeyword) return ['false'];
      if (ts.isStringLiteral(lit)) return [JSON.stringify(lit.text)];
      if (ts.isNumericLiteral(lit)) return [lit.text];
      break;
    }
    case ts.SyntaxKind.TypeReference: {
      const name = node.typeName.getText(source);
      if (name === 'Array' && node.typeArguments?.length === 1) return [`${wrap(canonical(node.typeArguments[0]))}[]`];
      if (name === 'Record' && node.typeArguments?.length === 2) {
        return [`{${canonical(node.typeArguments[0])}: ${canonical(node.typeArguments[1])}}`];
      }
      if (aliases.has(name)) return alternatives(aliases.get(name));
      if (interfaces.has(name)) return [name];
      return [`unknown type ${name}`];
    }
    default:
  }
  return [`unsupported type ${node.getText(source)}`];
}

function canonical(node) {
  return [...new Set(alternatives(node))].sort().join('|');
}

function wrap(type) {
  return type.includes('|') ? `(${type})` : type;
}

const out = {};
for (const [name, declaration] of interfaces) {
  const exported = declaration.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  if (!exported) continue;
  if (declaration.heritageClauses?.length) throw new Error(`${name}: extends is not supported here`);
  const fields = {};
  for (const member of declaration.members) {
    if (!ts.isPropertySignature(member) || member.type === undefined) {
      throw new Error(`${name}: only plain properties are supported, not ${member.getText(source)}`);
    }
    fields[member.name.getText(source)] = { optional: member.questionToken !== undefined, type: canonical(member.type) };
  }
  out[name] = fields;
}
console.log(JSON.stringify(out));
