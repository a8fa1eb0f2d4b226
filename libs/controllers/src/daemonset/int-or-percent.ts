// scaledValue is intstr.GetScaledValueFromIntOrPercent: an integer as is, or a percentage of
// total, rounded up or down. A malformed percentage throws, as the Go function returns an error.
import { IntOrString } from '@plinth/api';

export function scaledValue(value: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (value === undefined || value === null) throw new Error('nil value for IntOrString');
  if (typeof value === 'number') return value;
  const match = /^(-?[0-9]+)%$/.exec(value);
  if (!match) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const scaled = (Number.parseInt(match[1], 10) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}
