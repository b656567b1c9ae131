import { errorId, type FieldErrorProps } from '@rjsf/utils';

/** The errors of one field, right under it; referenced by the control's aria-describedby. */
export default function FieldErrorTemplate({ errors, fieldPathId }: FieldErrorProps) {
  const messages = (errors ?? []).filter((e): e is string => typeof e === 'string' && e.length > 0);
  if (messages.length === 0) return null;
  return (
    <ul id={errorId(fieldPathId)} className="field-errors">
      {messages.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  );
}
