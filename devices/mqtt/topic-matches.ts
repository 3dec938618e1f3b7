/**
 * Whether `topic` matches the MQTT topic filter `filter`: `+` stands for one level, a final `#` for
 * any number of levels (none included); a topic starting with `$` matches no filter starting with a
 * wildcard (MQTT 5, 4.7.2).
 */
export function topicMatches(filter: string, topic: string): boolean {
  const filterLevels = filter.split('/');
  const topicLevels = topic.split('/');
  if (topic.startsWith('$') && (filter.startsWith('+') || filter.startsWith('#'))) return false;
  for (let index = 0; index < filterLevels.length; index += 1) {
    const level = filterLevels[index];
    if (level === '#') return index === filterLevels.length - 1;
    if (index >= topicLevels.length) return false;
    if (level !== '+' && level !== topicLevels[index]) return false;
  }
  return filterLevels.length === topicLevels.length;
}
