// Countersign's RJSF theme: the widget and template maps, combined.
import { withTheme, type ThemeProps } from '@rjsf/core';
import { templates } from './templates';
import { widgets } from './widgets';

/** The theme's props (widgets + templates), for withTheme or a Form directly. */
export function generateTheme(): ThemeProps {
  return { widgets, templates };
}

/** RJSF's Form wearing the Countersign theme. */
export const ThemedForm = withTheme(generateTheme());
