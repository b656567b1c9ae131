// The theme's templates by the names RJSF looks them up under.
import type { TemplatesType } from '@rjsf/utils';
import BaseInputTemplate from './BaseInputTemplate';
import FieldErrorTemplate from './FieldErrorTemplate';
import FieldTemplate from './FieldTemplate';
import Nothing from './Nothing';
import ObjectFieldTemplate from './ObjectFieldTemplate';
import UnsupportedFieldTemplate from './UnsupportedFieldTemplate';

/**
 * Name-to-template map. Descriptions and help are drawn by FieldTemplate, the error summary and submit button by the
 * dialog.
 */
export const templates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> & {
  ButtonTemplates?: Partial<TemplatesType['ButtonTemplates']>;
} = {
  BaseInputTemplate,
  FieldTemplate,
  FieldErrorTemplate,
  ObjectFieldTemplate,
  UnsupportedFieldTemplate,
  DescriptionFieldTemplate: Nothing,
  FieldHelpTemplate: Nothing,
  ErrorListTemplate: Nothing,
  TitleFieldTemplate: Nothing,
  ButtonTemplates: { SubmitButton: Nothing },
};
