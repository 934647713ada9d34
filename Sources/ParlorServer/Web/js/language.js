// The person's language for apps: the one chosen in Settings › Language (kept in this browser),
// else the browser's own. Said to the server in each connection's hello; apps draw in it.

const KEY = 'parlor.language';

/** The choices Settings offers: a tag and its name in its own language ('' follows the browser). */
export const LANGUAGE_CHOICES = [
  ['', 'Automatic (this browser’s language)'],
  ['en', 'English'], ['fr', 'Français'], ['de', 'Deutsch'], ['es', 'Español'], ['it', 'Italiano'],
  ['pt', 'Português'], ['nl', 'Nederlands'], ['ja', '日本語'], ['zh', '中文'],
];

/** The tag chosen in Settings, or '' for the browser's. */
export function chosenLanguage() {
  const chosen = localStorage.getItem(KEY) || '';
  return LANGUAGE_CHOICES.some(([tag]) => tag === chosen) ? chosen : '';
}

/** The language apps should speak: the chosen one, else the browser's. */
export function appLanguage() {
  return chosenLanguage() || navigator.language || 'en';
}

/** Keeps `tag` ('' for the browser's) for this browser. */
export function chooseLanguage(tag) {
  if (tag) localStorage.setItem(KEY, tag);
  else localStorage.removeItem(KEY);
}
