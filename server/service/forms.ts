import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { NotFoundError, ValidationError } from '../core/errors';
import { slugify } from '../core/ids';
import type { Card } from '../core/model';
import { resolveCard } from './taskQueries';
import { saveCard } from './tasks';
import { taskView } from './views';
import type { Workspace } from './workspace';

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();

export interface ResolvedForm {
  id: string;
  name: string;
  schema: Record<string, unknown>;
  /** Defaults from `.kanban.json` forms.<id>.data. */
  configDefaults: Record<string, unknown>;
  /** Defaults carried by the card's own form entry (inline `data`). */
  cardDefaults: Record<string, unknown>;
}

/** The forms a card offers, each with the id its submissions are stored under. */
export function resolveForms(ws: Workspace, card: Card): ResolvedForm[] {
  return card.forms.flatMap((entry, index): ResolvedForm[] => {
    if ('schema' in entry && entry.schema) {
      const id = entry.id ?? (entry.name ? slugify(entry.name) : `form-${index + 1}`);
      const config = ws.config.forms[id];
      return [
        {
          id,
          name: entry.name ?? id,
          schema: entry.schema,
          configDefaults: config?.data ?? {},
          cardDefaults: entry.data ?? {},
        },
      ];
    }
    const config = entry.name ? ws.config.forms[entry.name] : undefined;
    if (!entry.name || !config) return [];
    return [
      {
        id: entry.name,
        name: config.name ?? entry.name,
        schema: config.schema,
        configDefaults: config.data ?? {},
        cardDefaults: (entry as { data?: Record<string, unknown> }).data ?? {},
      },
    ];
  });
}

function findForm(ws: Workspace, card: Card, formId: string): ResolvedForm {
  const attached = resolveForms(ws, card).find((f) => f.id === formId);
  if (attached) return attached;
  const config = ws.config.forms[formId];
  if (config)
    return {
      id: formId,
      name: config.name ?? formId,
      schema: config.schema,
      configDefaults: config.data ?? {},
      cardDefaults: {},
    };
  const known = resolveForms(ws, card).map((f) => f.id);
  throw new NotFoundError(
    `form "${formId}" is not attached to card "${card.id}" nor defined in .kanban.json${known.length ? ` (card forms: ${known.join(', ')})` : ''}`,
  );
}

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      throw new ValidationError(`the form's schema is not a valid JSON schema: ${(error as Error).message}`);
    }
    validators.set(key, validate);
  }
  return validate;
}

function describeFormError(error: ErrorObject): string {
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const p = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `"${field ? `${field}.` : ''}${p.missingProperty}" is required`;
  if (error.keyword === 'enum') return `"${field}" must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
  return `"${field || '(form)'}" ${error.message}`;
}

/** Metadata values whose keys are fields of the form. */
function matchingMetadata(card: Card, schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(card.metadata).filter(([key]) => key in properties));
}

export async function submitForm(
  ws: Workspace,
  boardId: string,
  idish: string,
  formId: string,
  data: Record<string, unknown>,
  actor: string,
) {
  return ws.mutate(async () => {
    const previous = resolveCard(ws, boardId, idish);
    const form = findForm(ws, previous, formId);
    // Later layers win: config defaults, card defaults or saved data, card metadata, submitted data.
    const merged = {
      ...form.configDefaults,
      ...form.cardDefaults,
      ...(previous.formData[form.id] ?? {}),
      ...matchingMetadata(previous, form.schema),
      ...data,
    };
    const validate = validatorFor(form.schema);
    if (!validate(merged)) {
      const problems = (validate.errors ?? []).map(describeFormError);
      throw new ValidationError(`form "${form.id}" is invalid: ${problems.join('; ')}`);
    }
    const card: Card = {
      ...previous,
      formData: { ...previous.formData, [form.id]: merged },
      modified: new Date().toISOString(),
    };
    await saveCard(ws, card, previous);
    await ws.cardStates.recordActivity(card, actor);
    ws.emit('form.submit', boardId, { taskId: card.id, formId: form.id, data: merged }, card);
    return { formId: form.id, data: merged, task: taskView(ws, card, { withComments: true, actor }) };
  });
}
