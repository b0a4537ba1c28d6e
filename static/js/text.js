// Text helpers shared by the room's modules.

const pageLanguage = document.documentElement.lang || undefined;

// Words in sentence case, whatever case they come in: the domain's words are lower case
// ("monster", "dying", "prone"), a spell's name has its own capitals ("Shield of Faith"), and
// side by side they read as a mix. Only a lower-case first letter changes, in the text itself
// (a CSS text-transform is not what a screen reader or a copy gets).
export function sentenceCase(text) {
  return String(text || "").replace(/^\p{Ll}/u, (first) => first.toLocaleUpperCase(pageLanguage));
}
