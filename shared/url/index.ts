// Public API of the offline URL analysis used for URL-mode questions.
export { analyzeUrl, MAX_URL_LENGTH } from './analyze-url';
export type { UrlAnalysis, UrlWarning, UrlWarningCode } from '../elicitation/types';
