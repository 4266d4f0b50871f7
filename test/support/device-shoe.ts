import { DeviceEvent } from '../../src/domain';

export { deviceShoe as playShoe, DEVICE_SEATS } from '../../src/domain';

/** A report as the device protocol carries it (numbers where the domain has bigints), with its sequence number. */
export function onTheWire(e: DeviceEvent, seq: number): Record<string, unknown> {
  if (e.type === 'BET_DETECTED') return { seq, ...e, chips: e.chips.map((c) => ({ ...c, denomination: Number(c.denomination) })) };
  return { seq, ...e };
}
