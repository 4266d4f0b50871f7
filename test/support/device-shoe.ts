export { deviceShoe as playShoe, DEVICE_SEATS } from '../../src/domain';
export { onTheWire } from '../../bench/device-client';
