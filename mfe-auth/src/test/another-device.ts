// Shared by this app's component tests: the same account signed in on a second device.
export { anotherDevice, type DeviceCall } from '../../../packages/api-client/src/another-device.test-helpers';
