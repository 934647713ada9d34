// "$<participant id>" tokens in app texts become the names the server sends beside them.

const TOKEN = /\$([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})/g;

/** `text` with every mention replaced by a display name ("someone" when unknown). */
export function resolveMentions(text, names) {
  if (typeof text !== 'string' || !text.includes('$')) return text ?? '';
  const map = names || {};
  return text.replace(TOKEN, (_, id) => map[id] ?? map[id.toUpperCase()] ?? map[id.toLowerCase()] ?? 'someone');
}
