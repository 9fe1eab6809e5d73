import { useEffect, useState } from 'preact/hooks';
import { useController } from '../../context';
import { cardFormsOf, submitCardForm, type CardFormView } from '../../state/drawerActions';
import type { FormSchema, TaskView, WorkspaceForm } from '../../types';
import { Icon } from '../Icon';

type Property = NonNullable<FormSchema['properties']>[string];

/** What a field holds while it is being filled in: text for inputs, a boolean for checkboxes. */
type FieldValue = string | boolean;

function startValue(property: Property, value: unknown): FieldValue {
  if (property.type === 'boolean') return value === true;
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The typed value to submit. An empty field is left out, so a required field left empty is
 * reported by the server's validation as missing rather than stored as "".
 */
function submitValue(property: Property, value: FieldValue): unknown {
  if (typeof value === 'boolean') return value;
  if (value.trim() === '') return undefined;
  if (property.type === 'number' || property.type === 'integer')
    return Number.isNaN(Number(value)) ? value : Number(value);
  if (property.enum) return property.enum.find((option) => String(option) === value) ?? value;
  if (property.type === 'array' || property.type === 'object') {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

function Field({
  name,
  property,
  required,
  value,
  onChange,
}: {
  name: string;
  property: Property;
  required: boolean;
  value: FieldValue;
  onChange(v: FieldValue): void;
}) {
  const label = `${property.title ?? name}${required ? ' *' : ''}`;
  const text = (e: Event) => onChange((e.target as HTMLInputElement).value);
  let control;
  if (property.type === 'boolean') {
    return (
      <label class="toggle-row form-field">
        <input
          type="checkbox"
          name={name}
          checked={value === true}
          onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
        />
        <span class="toggle-label">{label}</span>
      </label>
    );
  } else if (property.enum) {
    control = (
      <select class="input" name={name} value={String(value)} onChange={text}>
        <option value="">—</option>
        {property.enum.map((option) => (
          <option key={String(option)} value={String(option)}>
            {String(option)}
          </option>
        ))}
      </select>
    );
  } else if (property.type === 'number' || property.type === 'integer') {
    control = (
      <input
        class="input"
        type="number"
        step={property.type === 'integer' ? 1 : 'any'}
        name={name}
        value={String(value)}
        onInput={text}
      />
    );
  } else {
    control = <input class="input" type="text" name={name} value={String(value)} onInput={text} />;
  }
  return (
    <label class="field form-field">
      <span class="field-label">{label}</span>
      {control}
      {property.description && <span class="field-hint">{property.description}</span>}
    </label>
  );
}

function CardForm({ task, form }: { task: TaskView; form: CardFormView }) {
  const ctrl = useController();
  const properties = form.schema.properties ?? {};
  const required = new Set(form.schema.required ?? []);
  const initial = () =>
    Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        startValue(property, form.values[name] ?? property.default),
      ]),
    );
  const [values, setValues] = useState<Record<string, FieldValue>>(initial);
  const [dirty, setDirty] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Data saved elsewhere shows up, unless the person is filling the form in right now.
  const saved = JSON.stringify(form.values);
  useEffect(() => {
    if (!dirty) setValues(initial());
  }, [saved]);

  async function submit(e: Event) {
    e.preventDefault();
    const data: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      const value = submitValue(property, values[name] ?? '');
      if (value !== undefined) data[name] = value;
    }
    setBusy(true);
    const refusal = await submitCardForm(ctrl, task, form.id, data);
    setProblem(refusal);
    if (!refusal) setDirty(false);
    setBusy(false);
  }

  return (
    <form class="card-form" data-form-id={form.id} onSubmit={(e) => void submit(e)}>
      <div class="card-form-title">
        <Icon name="form" size={14} /> {form.schema.title ?? form.name}
      </div>
      {Object.entries(properties).map(([name, property]) => (
        <Field
          key={name}
          name={name}
          property={property}
          required={required.has(name)}
          value={values[name] ?? ''}
          onChange={(v) => (setDirty(true), setValues({ ...values, [name]: v }))}
        />
      ))}
      {problem && (
        <p class="field-error form-error" role="alert">
          {problem}
        </p>
      )}
      <div class="form-actions">
        <button type="submit" class="btn btn-primary btn-sm" disabled={busy}>
          {busy ? 'Submitting…' : 'Submit'}
        </button>
        {task.formData[form.id] && <span class="field-hint">Saved data is shown; submitting replaces it.</span>}
      </div>
    </form>
  );
}

/** Forms attached to the card, rendered from their JSON schema. */
export function FormsSection({
  task,
  workspaceForms,
}: {
  task: TaskView;
  workspaceForms: Record<string, WorkspaceForm>;
}) {
  const forms = cardFormsOf(task, workspaceForms);
  if (forms.length === 0) return null;
  return (
    <section class="drawer-section" aria-label="Forms">
      <h3 class="section-title">Forms</h3>
      {forms.map((form) => (
        <CardForm key={form.id} task={task} form={form} />
      ))}
    </section>
  );
}
