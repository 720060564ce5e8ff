// Domain errors. A `find*` function returns null for a missing record; a `get*` function throws
// NotFoundError. Validation problems throw ValidationError naming the field.

export class DomainError extends Error {
  constructor(code, message) {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}

export class NotFoundError extends DomainError {
  constructor(kind, id) {
    super("not_found", `${kind} ${id} not found`);
    this.kind = kind;
    this.id = id;
  }
}

export class ValidationError extends DomainError {
  constructor(field, message) {
    super("invalid", `${field}: ${message}`);
    this.field = field;
  }
}

export class ConflictError extends DomainError {
  constructor(message) {
    super("conflict", message);
  }
}
