// What every widget puts on its own control, written once: the id and name
// RJSF expects, autofocus, the aria links to the texts its field template
// shows (only to texts that exist), and blur/focus reported with the value.
import type { FocusEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { fieldTexts } from '../field-aria';

/** The widget props the control's attributes come from. */
export type ControlSource = Pick<
  WidgetProps,
  'id' | 'htmlName' | 'autofocus' | 'onBlur' | 'onFocus' | 'schema' | 'value' | 'rawErrors' | 'registry'
>;

/** The control's shared attributes; `read` turns its element into the value RJSF is told on blur and focus. */
export function controlProps<E extends HTMLElement>(source: ControlSource, read: (el: E) => unknown) {
  const { id, htmlName, autofocus, onBlur, onFocus } = source;
  const texts = fieldTexts(source);
  return {
    id,
    name: htmlName || id,
    autoFocus: autofocus,
    'aria-invalid': texts.errors.length > 0 || undefined,
    'aria-describedby': texts.describedBy,
    onBlur: (e: FocusEvent<E>) => onBlur(id, read(e.target)),
    onFocus: (e: FocusEvent<E>) => onFocus(id, read(e.target)),
  };
}
