import { ValidationError } from '../core/errors';
import { PRIORITIES, type Priority } from '../core/shapes/vocabulary';
import { isValidSlugId } from '../core/ids';

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

export function checkColor(color: string, what = 'color'): string {
  if (!HEX_COLOR.test(color)) throw new ValidationError(`${what} must be a hex color such as #3b82f6 (got "${color}")`);
  return color;
}

export function checkSlugId(id: string, what: string): string {
  if (!isValidSlugId(id)) {
    throw new ValidationError(
      `${what} "${id}" is invalid: use 1-64 characters a-z, 0-9, '-' or '_', starting with a letter or digit`,
    );
  }
  return id;
}

export function checkPriority(priority: string): Priority {
  if (!PRIORITIES.includes(priority as Priority))
    throw new ValidationError(`priority must be one of ${PRIORITIES.join(', ')} (got "${priority}")`);
  return priority as Priority;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** ISO 8601 date or date-time that also names a real calendar day. */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    !Number.isNaN(Date.parse(value.replace(' ', 'T')))
  );
}

export function checkIsoDate(value: string, what: string): string {
  if (!isIsoDate(value))
    throw new ValidationError(
      `${what} must be an ISO 8601 date such as 2026-12-31 or 2026-12-31T17:00:00Z (got "${value}")`,
    );
  return value;
}

/** Label names appear in URLs and YAML; keep them printable and reasonably short. */
export function checkLabelName(name: string): string {
  if (name.trim() === '' || name.length > 64 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new ValidationError(`label name must be 1-64 printable characters (got ${JSON.stringify(name)})`);
  }
  return name;
}
