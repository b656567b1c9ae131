import type { ObjectFieldTemplateProps } from '@rjsf/utils';

/** The form body: the fields, one per row. The schema is flat, so this is only ever the root. */
export default function ObjectFieldTemplate({ properties }: ObjectFieldTemplateProps) {
  return (
    <div className="form-fields">{properties.map((p) => (p.hidden ? null : <div key={p.name}>{p.content}</div>))}</div>
  );
}
