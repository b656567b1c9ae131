import { useEffect, useState, type ChangeEvent } from 'react';
import { getTemplate, type WidgetProps } from '@rjsf/utils';
import { parseDate, parseDateTime, showDate, showDateTime } from '../local-dates';

/**
 * A date (or date and time) typed in the app language's own order (German: TT.MM.JJJJ), for a language whose
 * order the browser's picker would not follow. The field keeps what is typed; the form value is the schema's
 * form (YYYY-MM-DD, or UTC with Z) as soon as the text is a real date, and the text itself until then, so the
 * format check names the field rather than the form silently sending nothing.
 */
export default function TypedDateInput(props: WidgetProps & { withTime: boolean }) {
  const { onChange, options, value, withTime } = props;
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, options);
  const [show, parse] = withTime ? [showDateTime, parseDateTime] : [showDate, parseDate];
  const current = typeof value === 'string' ? value : '';
  const [text, setText] = useState(() => show(current));
  // A value set from outside (a default, Back in a round) replaces the text unless the text already means it.
  useEffect(() => {
    setText((typed) => ((parse(typed) ?? typed) === current ? typed : show(current)));
  }, [current, parse, show]);
  const handleChange = (e: ChangeEvent<HTMLInputElement>) => {
    const typed = e.target.value;
    setText(typed);
    onChange(typed.trim() === '' ? options.emptyValue : (parse(typed) ?? typed));
  };
  return (
    <BaseInputTemplate
      {...props}
      type="text"
      value={text}
      placeholder={withTime ? 'TT.MM.JJJJ HH:MM' : 'TT.MM.JJJJ'}
      onChangeOverride={handleChange}
    />
  );
}
