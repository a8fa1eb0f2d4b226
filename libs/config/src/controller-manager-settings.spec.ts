import { controllerEnabled } from './controller-manager-settings';

describe('controllerEnabled', () => {
  it('selects controllers as the Controllers list does: first match wins', () => {
    expect(controllerEnabled('job', ['*'])).toBe(true);
    expect(controllerEnabled('job', ['-job', '*'])).toBe(false);
    expect(controllerEnabled('job', ['*', '-job'])).toBe(true);
    expect(controllerEnabled('daemonset', ['job'])).toBe(false);
    expect(controllerEnabled('job', [])).toBe(false);
  });
});
