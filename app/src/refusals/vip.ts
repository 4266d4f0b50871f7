import type { Refusals } from './index';

/** The refusals of the vip desk's acts, by the service's code (see index.ts). */
export const VIP_REFUSALS: Refusals = {
  en: {},
  'zh-Hant': {},
  'zh-Hans': {},
};
