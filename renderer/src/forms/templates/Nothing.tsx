/** Renders nothing: for RJSF slots the dialog fills itself (submit button, error list) or the field template draws. */
export default function Nothing() {
  return null;
}
