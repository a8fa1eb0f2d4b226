// FieldPath addresses a field inside an object, printed as Kubernetes prints field.Path:
// `spec.template.spec.containers[0].name`, `metadata.labels[foo]`.
export class FieldPath {
  private constructor(
    private readonly parent: FieldPath | null,
    private readonly name: string,
    private readonly subscript: string,
  ) {}

  // new is field.NewPath: a root path, optionally followed by child names.
  static new(name: string, ...moreNames: string[]): FieldPath {
    return new FieldPath(null, name, '').child(...moreNames);
  }

  root(): FieldPath {
    return this.parent ? this.parent.root() : this;
  }

  child(...names: string[]): FieldPath {
    return names.reduce<FieldPath>((p, name) => new FieldPath(p, name, ''), this);
  }

  index(i: number): FieldPath {
    return new FieldPath(this, '', String(i));
  }

  key(key: string): FieldPath {
    return new FieldPath(this, '', key);
  }

  toString(): string {
    const prefix = this.parent ? this.parent.toString() : '';
    if (this.name.length === 0) return `${prefix}[${this.subscript}]`;
    return this.parent ? `${prefix}.${this.name}` : this.name;
  }
}

// newPath is field.NewPath.
export function newPath(name: string, ...moreNames: string[]): FieldPath {
  return FieldPath.new(name, ...moreNames);
}

// childPath is (*field.Path).Child on a possibly nil path: a nil parent gives a root path.
export function childPath(parent: FieldPath | null | undefined, name: string, ...moreNames: string[]): FieldPath {
  return parent ? parent.child(name, ...moreNames) : FieldPath.new(name, ...moreNames);
}

// pathString is (*field.Path).String(), which prints `<nil>` for a nil path.
export function pathString(path: FieldPath | string | null | undefined): string {
  if (path === null || path === undefined) return '<nil>';
  return typeof path === 'string' ? path : path.toString();
}
