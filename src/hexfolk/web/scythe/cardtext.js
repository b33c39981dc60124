// A printed card's text in the player's language: i18n/scythe/<lang>.json holds each card's
// text keyed by its number (`card.obj.<n>.name`, `card.obj.<n>.cond`, `card.enc.<n>.<k>`,
// `card.fac.<n>`); the English file is the fallback, then the caller's (the data file's English
// or the effect words), so a card added to the data without texts still shows.
import { t } from "../i18n.js";

export function cardText(key, fallback) {
  const s = t(key);
  return s === key ? fallback : s;
}
