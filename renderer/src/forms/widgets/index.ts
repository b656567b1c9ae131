// The theme's widgets by the names RJSF looks them up under.
import type { RegistryWidgetsType } from '@rjsf/utils';
import CheckboxWidget from './CheckboxWidget';
import CheckboxesWidget from './CheckboxesWidget';
import DateTimeWidget from './DateTimeWidget';
import DateWidget from './DateWidget';
import EmailWidget from './EmailWidget';
import RadioWidget from './RadioWidget';
import SelectWidget from './SelectWidget';
import TextWidget from './TextWidget';
import URLWidget from './URLWidget';

/** Name-to-widget map. RJSF maps string formats email/uri/date/date-time to the *Widget names itself. */
export const widgets: RegistryWidgetsType = {
  TextWidget,
  EmailWidget,
  URLWidget,
  DateWidget,
  DateTimeWidget,
  CheckboxWidget,
  CheckboxesWidget,
  RadioWidget,
  SelectWidget,
};
