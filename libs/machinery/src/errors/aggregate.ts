// aggregateMessage is the text of utilerrors.NewAggregate(errs).Error() in Kubernetes: one message
// alone, or the distinct messages joined by ", " inside brackets. It returns undefined for none,
// as NewAggregate returns nil.
export function aggregateMessage(messages: readonly string[]): string | undefined {
  if (messages.length === 0) return undefined;
  if (messages.length === 1) return messages[0];
  const seen = [...new Set(messages)];
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}
