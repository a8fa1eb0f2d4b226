// Small checks of pkg/apis/core/validation and k8s.io/apimachinery/pkg/util/validation (v1.28)
// that several core types share. Each returns field errors with Kubernetes' wording.
import { isIP } from 'node:net';
import { KubernetesResourceNamespacePrefix, ResourceDefaultNamespacePrefix } from '@plinth/api';
import { field, FieldError, FieldPath, GoLiteral, validation } from '@plinth/machinery';
import { formatQuantity, milliValue, Quantity, tryParseQuantity } from './quantity';

export type Obj = Record<string, unknown>;

export const isNegativeErrorMsg = 'must be greater than or equal to 0';
export const isNotPositiveErrorMsg = 'must be greater than zero';
export const isNotIntegerErrorMsg = 'must be an integer';
export const fileModeErrorMsg = 'must be a number between 0 and 0777 (octal), both inclusive';

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : [];
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : [];
}

export function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}


export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

export function validateDNS1123Label(value: string, path: FieldPath): FieldError[] {
  return validation.isDNS1123Label(value).map((msg) => field.invalid(path, value, msg));
}

export function validateDNS1123Subdomain(value: string, path: FieldPath): FieldError[] {
  return validation.isDNS1123Subdomain(value).map((msg) => field.invalid(path, value, msg));
}

export function validateQualifiedName(value: string, path: FieldPath): FieldError[] {
  return validation.isQualifiedName(value).map((msg) => field.invalid(path, value, msg));
}

export function validateNonnegativeField(value: number, path: FieldPath): FieldError[] {
  return value < 0 ? [field.invalid(path, value, isNegativeErrorMsg)] : [];
}

// maskTrailingDash lets a generateName-style prefix end in '-' (NameIsDNSSubdomain(prefix=true)).
export function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

export function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  return validation.isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
}

export function nameIsDNSLabel(name: string, prefix: boolean): string[] {
  return validation.isDNS1123Label(prefix ? maskTrailingDash(name) : name);
}

export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

// isValidPortName is validation.IsValidPortName (an IANA_SVC_NAME).
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(validation.maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

// validatePortNumOrName checks an int-or-string port.
export function validatePortNumOrName(port: unknown, path: FieldPath): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((msg) => field.invalid(path, port, msg));
  if (typeof port === 'string') return isValidPortName(port).map((msg) => field.invalid(path, port, msg));
  return [field.internalError(path, `unknown type: ${String(port)}`)];
}

export function isValidIDRange(id: number): string[] {
  return id >= 0 && id <= 2147483647 ? [] : [inclusiveRangeError(0, 2147483647)];
}

// parseIPSloppy is netutils.ParseIPSloppy: IPv4 octets may carry leading zeros.
export function parseIPSloppy(value: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) return value.split('.').every((o) => Number(o) <= 255);
  return isIP(value) === 6;
}

export function ipFamily(value: string): 4 | 6 | 0 {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) return parseIPSloppy(value) ? 4 : 0;
  if (isIP(value) !== 6) return 0;
  // An IPv4-mapped IPv6 address is IPv4 to Go's net.IP.To4.
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(value) ? 4 : 6;
}

export function isValidIP(value: string): string[] {
  return parseIPSloppy(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

// isEnvVarName is validation.IsEnvVarName.
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!/^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(value)) {
    errs.push(
      validation.regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        '[-._a-zA-Z][-._a-zA-Z0-9]*',
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  }
  errs.push(...hasChDirPrefix(value));
  return errs;
}

export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > validation.DNS1123SubdomainMaxLength) errs.push(validation.maxLenError(validation.DNS1123SubdomainMaxLength));
  if (!/^[-._a-zA-Z0-9]+$/.test(value)) {
    errs.push(validation.regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", '[-._a-zA-Z0-9]+', 'key.name', 'KEY_NAME', 'key-name'));
  }
  errs.push(...hasChDirPrefix(value));
  return errs;
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

export function isHTTPHeaderName(value: string): string[] {
  return /^[-A-Za-z0-9]+$/.test(value)
    ? []
    : [validation.regexError("a valid HTTP header must consist of alphanumeric characters or '-'", '[-A-Za-z0-9]+', 'X-Header-Name')];
}

// Paths of volumes and mounts.
export function validatePathNoBacksteps(target: string, path: FieldPath): FieldError[] {
  return target.split('/').includes('..') ? [field.invalid(path, target, "must not contain '..'")] : [];
}

export function validateLocalDescendingPath(target: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(field.invalid(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

export function validateLocalNonReservedPath(target: string, path: FieldPath): FieldError[] {
  const errs = validateLocalDescendingPath(target, path);
  if (cleanPath(target).startsWith('..')) errs.push(field.invalid(path, target, "must not start with '..'"));
  return errs;
}

// cleanPath is Go's path.Clean.
export function cleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
    } else out.push(part);
  }
  const joined = out.join('/');
  return rooted ? `/${joined}` : joined || '.';
}

// Resource names and quantities (pkg/apis/core/helper).
const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);
const standardResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets',
  'persistentvolumeclaims', 'configmaps', 'requests.storage', 'services.nodeports', 'services.loadbalancers', 'storage',
]);
const integerResources = new Set([
  'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'persistentvolumeclaims', 'configmaps',
  'services.nodeports', 'services.loadbalancers',
]);

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-');
}

// isNativeResource is IsNativeResource: a name without a domain, or one in the native domain
// (kubernetes.io/ in Kubernetes, platform.io/ in Plinth; Kubernetes' stays reserved too).
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes(ResourceDefaultNamespacePrefix) || name.includes(KubernetesResourceNamespacePrefix);
}

export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return validation.isQualifiedName(`requests.${name}`).length === 0;
}

export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

function isIntegerResourceName(name: string): boolean {
  return integerResources.has(name) || isExtendedResourceName(name);
}

function isStandardResourceName(name: string): boolean {
  return standardResources.has(name) || isHugePageResourceName(name) || name.startsWith('requests.hugepages-');
}

export function validateResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateQualifiedName(name, path);
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    errs.push(field.invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

export function validateContainerResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!standardContainerResources.has(name) && !isHugePageResourceName(name)) {
      errs.push(field.invalid(path, name, 'must be a standard resource for containers'));
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(field.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

// quantityLiteral prints a Quantity the way field errors print a Stringer: unquoted.
export function quantityLiteral(q: Quantity): GoLiteral {
  return new GoLiteral(formatQuantity(q));
}

// parseQuantityField parses a quantity value of an object; undefined when it does not parse
// (the decoder rejects such values before validation runs in Kubernetes).
export function parseQuantityField(value: unknown, path: FieldPath, errs: FieldError[]): Quantity | undefined {
  const q = tryParseQuantity(value);
  if (!q) errs.push(field.invalid(path, value, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
  return q;
}

export function validateResourceQuantityValue(resource: string, q: Quantity, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (q.nanos < 0n) errs.push(field.invalid(path, formatQuantity(q), isNegativeErrorMsg));
  if (isIntegerResourceName(resource) && milliValue(q) % 1000n !== 0n) errs.push(field.invalid(path, quantityLiteral(q), isNotIntegerErrorMsg));
  return errs;
}

export function sortedKeys(o: unknown): string[] {
  return isObj(o) ? Object.keys(o).sort() : [];
}
